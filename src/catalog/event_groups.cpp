// No event groups are defined yet (see event_groups.h).
#include "catalog/event_groups.h"

namespace pmapi {

EventGroupList EventGroupsForFilter(int /*status_filter*/) { return EventGroupList{}; }

}  // namespace pmapi
