// The events/ and groups/ tables compiled into the library (see embed_tables.cmake).
#pragma once

namespace pmapi {

struct EmbeddedTable {
  const char *file_name;  // e.g. "generic.tbl" or "basic.grp", used in parse errors
  const char *text;
};

// Terminated by an entry whose file_name is nullptr.
extern const EmbeddedTable kEmbeddedEventTables[];
extern const EmbeddedTable kEmbeddedGroupTables[];

}  // namespace pmapi
