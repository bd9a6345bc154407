// SPDX-License-Identifier: MIT
// pmdapmapi: the Performance Co-Pilot agent over libpmapi. This file is the PCP side (the
// namespace, the instance domains, fetch, labels, help); what is counted, and how, is
// counting.cpp's, through libpmapi's public calls. docs/pcp.md describes the metrics.
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "agent_config.h"
#include "counting.h"
#include "domain.h"
#include "metric_ids.h"
#include "perf_lock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using pmapi_pcp::AgentItem;
using pmapi_pcp::Counting;
using pmapi_pcp::EventCount;
using pmapi_pcp::Kind;
using pmapi_pcp::MetricId;
using pmapi_pcp::Scope;

enum IndomSerial { kCpuIndom = 0, kJobIndom = 1, kRefusedIndom = 2, kIndoms = 3 };

// What a metric of the table is: m_user points at one of these.
struct MetricInfo {
  Scope scope;
  Kind kind;
  int index;  // the event's, the formula's, or the agent item
  std::string name;
  std::string help;
};

std::unique_ptr<Counting> g_counting = std::make_unique<Counting>();
pmapi_pcp::AgentConfig g_config;
std::vector<MetricInfo> g_infos;
std::vector<pmdaMetric> g_metrics;
pmdaNameSpace *g_tree = nullptr;
pmdaIndom g_indoms[kIndoms];
std::vector<pmdaInstid> g_instances[kIndoms];
std::vector<std::string> g_instance_names[kIndoms];

// The counts of the fetch being answered, read once per fetch.
std::vector<std::vector<EventCount>> g_cpu_counts;
std::vector<EventCount> g_node_counts;
std::vector<std::vector<EventCount>> g_job_counts;
std::vector<bool> g_cpu_ok, g_job_ok;

const char *const kScopeName[] = {"cpu", "job", "node"};

std::string WhereText(int scope) {
  return scope == 0 ? "on each CPU" : scope == 1 ? "in each job (cgroup)" : "on the whole node";
}

void SetInstances(int serial, std::vector<std::pair<int, std::string>> list) {
  g_instance_names[serial].clear();
  g_instances[serial].clear();
  for (auto &item : list) g_instance_names[serial].push_back(item.second);
  for (size_t i = 0; i < list.size(); ++i) {
    g_instances[serial].push_back(
        {list[i].first, const_cast<char *>(g_instance_names[serial][i].c_str())});
  }
  g_indoms[serial].it_numinst = static_cast<int>(g_instances[serial].size());
  g_indoms[serial].it_set = g_instances[serial].data();
}

// The uid each client context gave pmcd (PMDA_ATTR_USERID); a context without one (a remote
// client) is nobody's.
std::map<int, long> g_client_uid;
int g_context = -1;  // the client context of the request being answered

int Attribute(int context, int attribute, const char *value, int length, pmdaExt *pmda) {
  if (attribute == PMDA_ATTR_USERID) g_client_uid[context] = strtol(value, nullptr, 10);
  return pmdaAttribute(context, attribute, value, length, pmda);
}

void EndContext(int context) { g_client_uid.erase(context); }

// Whether the client being answered may see a job owned by `owner`: root and the owner, as
// PCP's proc agent lets a client see its own processes.
bool MaySee(unsigned owner) {
  if (!g_config.jobs_to_owner) return true;
  const auto client = g_client_uid.find(g_context);
  if (client == g_client_uid.end()) return false;
  return client->second == 0 || client->second == static_cast<long>(owner);
}

// The jobs now under the root, as the client being answered may see them.
void RefreshJobs() {
  g_counting->ScanJobs();
  std::vector<std::pair<int, std::string>> list;
  static std::map<std::string, std::string> logged;  // each failure once, in the agent's log
  for (const auto &job : g_counting->jobs()) {
    if (!job.counted && logged[job.name] != job.why) {
      logged[job.name] = job.why;
      pmNotifyErr(LOG_WARNING, "job %s not counted: %s", job.name.c_str(), job.why.c_str());
    }
    if (job.counted && MaySee(job.owner)) list.push_back({job.instance, job.name});
  }
  SetInstances(kJobIndom, list);
}

void AddMetric(Scope scope, Kind kind, int index, MetricId id, const std::string &name,
               const std::string &help) {
  pmdaMetric metric = {};
  metric.m_desc.pmid = pmID_build(PMAPI, id.cluster, id.item);
  metric.m_desc.indom = scope == Scope::kCpu   ? pmInDom_build(PMAPI, kCpuIndom)
                        : scope == Scope::kJob ? pmInDom_build(PMAPI, kJobIndom)
                                               : PM_INDOM_NULL;
  if (kind == Kind::kCount) {
    metric.m_desc.type = PM_TYPE_U64;
    metric.m_desc.sem = PM_SEM_COUNTER;
    metric.m_desc.units = PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE);
  } else if (scope == Scope::kAgent) {
    metric.m_desc.type = PM_TYPE_STRING;
    metric.m_desc.sem = PM_SEM_DISCRETE;
    if (index == pmapi_pcp::kRefusedItem) metric.m_desc.indom = pmInDom_build(PMAPI, kRefusedIndom);
  } else {
    metric.m_desc.type = PM_TYPE_DOUBLE;
    metric.m_desc.sem = PM_SEM_INSTANT;
  }
  g_infos.push_back({scope, kind, index, name, help});
  g_metrics.push_back(metric);
}

// Every metric of the configured events: counts and running shares per scope, the group's
// formulas, and the agent's status.
void BuildMetrics() {
  using pmapi_pcp::AgentMetricId;
  g_infos.clear();
  g_metrics.clear();
  if (g_tree != nullptr) pmdaTreeRelease(g_tree);
  g_tree = nullptr;
  AddMetric(Scope::kAgent, Kind::kShare, pmapi_pcp::kStateItem,
            AgentMetricId(pmapi_pcp::kStateItem), "pmapi.status.state",
            "What the agent counts, or the library's sentence saying why it counts nothing");
  AddMetric(Scope::kAgent, Kind::kShare, pmapi_pcp::kNoteItem, AgentMetricId(pmapi_pcp::kNoteItem),
            "pmapi.status.note",
            "Why the default events are the software set (no hardware PMU), else empty");
  AddMetric(Scope::kAgent, Kind::kShare, pmapi_pcp::kRefusedItem,
            AgentMetricId(pmapi_pcp::kRefusedItem), "pmapi.status.refused",
            "Each refused event (the instance) and the library's reason");
  AddMetric(Scope::kAgent, Kind::kShare, pmapi_pcp::kEventsItem,
            AgentMetricId(pmapi_pcp::kEventsItem), "pmapi.status.events",
            "The event spec or group counted (empty: the library's default)");
  AddMetric(Scope::kAgent, Kind::kShare, pmapi_pcp::kCgroupItem,
            AgentMetricId(pmapi_pcp::kCgroupItem), "pmapi.status.cgroup_root",
            "The cgroup v2 directory whose subdirectories are jobs (empty: no jobs)");
  const auto &events = g_counting->events();
  for (int s = 0; s < 3; ++s) {
    const Scope scope = static_cast<Scope>(s);
    for (size_t e = 0; e < events.size(); ++e) {
      const auto &event = events[e];
      const std::string where = WhereText(s);
      AddMetric(scope, Kind::kCount, static_cast<int>(e),
                pmapi_pcp::EventMetricId(scope, Kind::kCount, event.mode, event.event_id),
                std::string("pmapi.") + kScopeName[s] + "." + event.leaf,
                "Count of " + event.name + " " + where + " (never scaled)");
      AddMetric(scope, Kind::kShare, static_cast<int>(e),
                pmapi_pcp::EventMetricId(scope, Kind::kShare, event.mode, event.event_id),
                std::string("pmapi.share.") + kScopeName[s] + "." + event.leaf,
                "Share of " + event.name + "'s enabled time it was on a counter " + where +
                    " (1: counted all the time; below 1: multiplexed)");
    }
    for (const auto &formula : g_counting->formulas()) {
      AddMetric(scope, Kind::kDerived, formula.position,
                pmapi_pcp::DerivedMetricId(scope, g_counting->group_id(), formula.position),
                std::string("pmapi.derived.") + kScopeName[s] + "." + formula.leaf,
                formula.name + " = " + formula.formula + " " + WhereText(s));
    }
  }
  for (size_t m = 0; m < g_metrics.size(); ++m) g_metrics[m].m_user = &g_infos[m];
  pmdaTreeCreate(&g_tree);
  for (size_t m = 0; m < g_metrics.size(); ++m) {
    pmdaTreeInsert(g_tree, g_metrics[m].m_desc.pmid, g_infos[m].name.c_str());
  }
  pmdaTreeRebuildHash(g_tree, static_cast<int>(g_metrics.size()));
}

// Reads the scopes a fetch asks for, once.
void ReadScopes(bool cpus, bool jobs) {
  const size_t nevents = g_counting->events().size();
  if (cpus) {
    const size_t ncpus = g_counting->cpus().size();
    g_cpu_counts.assign(ncpus, {});
    g_cpu_ok.assign(ncpus, false);
    g_node_counts.assign(nevents, EventCount{});
    for (size_t c = 0; c < ncpus; ++c) {
      g_cpu_ok[c] = g_counting->ReadCpu(c, &g_cpu_counts[c]);
      if (!g_cpu_ok[c]) continue;
      for (size_t e = 0; e < nevents; ++e) {
        g_node_counts[e].raw += g_cpu_counts[c][e].raw;
        g_node_counts[e].enabled += g_cpu_counts[c][e].enabled;
        g_node_counts[e].running += g_cpu_counts[c][e].running;
      }
    }
  }
  if (jobs) {
    RefreshJobs();
    const size_t njobs = g_counting->jobs().size();
    g_job_counts.assign(njobs, {});
    g_job_ok.assign(njobs, false);
    for (size_t j = 0; j < njobs; ++j) g_job_ok[j] = g_counting->ReadJob(j, &g_job_counts[j]);
  }
}

// Steps aside while a user holds perfevent's lock file (PCP's perfalloc), and back after.
void CheckPerfLock() {
  static const std::string path =
      g_config.perfevent_lock.empty()
          ? std::string(pmGetConfig("PCP_PMDAS_DIR")) + "/perfevent/perflock"
          : g_config.perfevent_lock;
  const bool held = pmapi_pcp::PerfLockHeld(path);
  if (held != g_counting->aside()) {
    pmNotifyErr(LOG_INFO, "%s %s", held ? "stepping aside:" : "counting again:", path.c_str());
  }
  g_counting->StepAside(held, "stepped aside: a user holds " + path +
                                  " (perfalloc); counting starts again when it is released");
}

int Fetch(int numpmid, pmID *pmidlist, pmResult **resp, pmdaExt *pmda) {
  g_context = pmda->e_context;
  CheckPerfLock();
  bool cpus = false, jobs = false;
  for (int i = 0; i < numpmid; ++i) {
    const unsigned scope = pmID_cluster(pmidlist[i]) >> 10;
    if (scope == static_cast<unsigned>(Scope::kCpu) ||
        scope == static_cast<unsigned>(Scope::kNode)) {
      cpus = true;
    }
    if (scope == static_cast<unsigned>(Scope::kJob)) jobs = true;
  }
  ReadScopes(cpus, jobs);
  return pmdaFetch(numpmid, pmidlist, resp, pmda);
}

// The counts of (scope, instance), or nullptr when that instance has none this fetch.
const std::vector<EventCount> *CountsOf(Scope scope, unsigned inst) {
  if (scope == Scope::kNode) return &g_node_counts;
  if (scope == Scope::kCpu) {
    return inst < g_cpu_counts.size() && g_cpu_ok[inst] ? &g_cpu_counts[inst] : nullptr;
  }
  const auto &jobs = g_counting->jobs();
  for (size_t j = 0; j < jobs.size() && j < g_job_counts.size(); ++j) {
    if (jobs[j].instance != static_cast<int>(inst)) continue;
    return g_job_ok[j] && MaySee(jobs[j].owner) ? &g_job_counts[j] : nullptr;
  }
  return nullptr;
}

int AgentValue(int item, unsigned inst, pmAtomValue *atom) {
  static std::string text;
  switch (item) {
    case pmapi_pcp::kStateItem:
      text = g_counting->state();
      break;
    case pmapi_pcp::kNoteItem:
      text = g_counting->note();
      break;
    case pmapi_pcp::kEventsItem:
      text = g_counting->spec();
      break;
    case pmapi_pcp::kCgroupItem:
      text = g_counting->cgroup_root();
      break;
    case pmapi_pcp::kRefusedItem:
      if (inst >= g_counting->refusals().size()) return PM_ERR_INST;
      text = g_counting->refusals()[inst].reason;
      break;
    default:
      return PM_ERR_PMID;
  }
  atom->cp = const_cast<char *>(text.c_str());
  return 1;
}

int FetchValue(pmdaMetric *metric, unsigned int inst, pmAtomValue *atom) {
  const auto *info = static_cast<const MetricInfo *>(metric->m_user);
  if (info->scope == Scope::kAgent) return AgentValue(info->index, inst, atom);
  const std::vector<EventCount> *counts = CountsOf(info->scope, inst);
  if (counts == nullptr || counts->empty()) return PM_ERR_INST;
  if (info->kind == Kind::kCount) {
    atom->ull = (*counts)[static_cast<size_t>(info->index)].raw;
    return 1;
  }
  if (info->kind == Kind::kShare) {
    const EventCount &count = (*counts)[static_cast<size_t>(info->index)];
    if (count.enabled == 0) return 0;  // never enabled yet: no share to give
    atom->d = static_cast<double>(count.running) / static_cast<double>(count.enabled);
    return 1;
  }
  // A formula: the elapsed time is the first member's enabled time on one CPU (a job and the
  // node are counted on every CPU, their times summed).
  double seconds = static_cast<double>((*counts)[0].enabled) / 1e9;
  if (info->scope != Scope::kCpu && !g_counting->cpus().empty()) {
    seconds /= static_cast<double>(g_counting->cpus().size());
  }
  std::vector<double> values;
  g_counting->Evaluate(*counts, seconds, &values);
  const double value = values[static_cast<size_t>(info->index)];
  if (isnan(value)) return 0;
  atom->d = value;
  return 1;
}

int Instance(pmInDom indom, int inst, char *name, pmInResult **result, pmdaExt *pmda) {
  g_context = pmda->e_context;
  if (pmInDom_serial(indom) == kJobIndom) RefreshJobs();
  return pmdaInstance(indom, inst, name, result, pmda);
}

int CpuLabels(pmInDom indom, unsigned int inst, pmLabelSet **labels) {
  if (pmInDom_serial(indom) != kCpuIndom || inst >= g_counting->cpus().size()) return 0;
  const auto &cpu = g_counting->cpus()[inst];
  return pmdaAddLabels(labels, "{\"linux_cpu\":%d,\"core\":%d,\"package\":%d,\"numa_node\":%d}",
                       cpu.lcpu, cpu.core, cpu.package, cpu.numa_node);
}

int Text(int ident, int type, char **buffer, pmdaExt *pmda) {
  if ((type & PM_TEXT_PMID) == 0) return pmdaText(ident, type, buffer, pmda);
  for (size_t m = 0; m < g_metrics.size(); ++m) {
    if (g_metrics[m].m_desc.pmid == static_cast<pmID>(ident)) {
      *buffer = const_cast<char *>(g_infos[m].help.c_str());
      return 0;
    }
  }
  return PM_ERR_TEXT;
}

// A counting of `spec` with the configured jobs, its state in the agent's log.
std::unique_ptr<Counting> Configured(const std::string &spec) {
  auto counting = std::make_unique<Counting>();
  counting->SetCgroupRoot(g_config.cgroup_root);
  counting->Configure(spec);
  pmNotifyErr(LOG_INFO, "events '%s': %s", spec.c_str(), counting->state().c_str());
  for (const auto &refusal : counting->refusals()) {
    pmNotifyErr(LOG_WARNING, "%s refused: %s", refusal.event.c_str(), refusal.reason.c_str());
  }
  return counting;
}

// Makes `counting` the one the metrics answer from: names, ids and instances follow it.
void Adopt(std::unique_ptr<Counting> counting) {
  g_counting = std::move(counting);
  BuildMetrics();
  std::vector<std::pair<int, std::string>> cpus, refused;
  for (const auto &cpu : g_counting->cpus()) {
    cpus.push_back({cpu.cpuid, "cpu" + std::to_string(cpu.cpuid)});
  }
  for (size_t r = 0; r < g_counting->refusals().size(); ++r) {
    refused.push_back({static_cast<int>(r), g_counting->refusals()[r].event});
  }
  SetInstances(kCpuIndom, cpus);
  SetInstances(kRefusedIndom, refused);
  RefreshJobs();
}

// pmstore pmapi.status.events SPEC: other events from now on, asked by root on this machine
// only (pmcd passes a uid for local clients alone). A spec that counts nothing changes nothing.
int Store(pmResult *result, pmdaExt *pmda) {
  const pmID events_id = pmID_build(PMAPI, pmapi_pcp::AgentMetricId(pmapi_pcp::kEventsItem).cluster,
                                    pmapi_pcp::kEventsItem);
  for (int i = 0; i < result->numpmid; ++i) {
    const pmValueSet *set = result->vset[i];
    if (set->pmid != events_id) return PM_ERR_PERMISSION;
    const auto client = g_client_uid.find(pmda->e_context);
    if (client == g_client_uid.end() || client->second != 0) return PM_ERR_PERMISSION;
    if (set->numval != 1) return PM_ERR_INST;
    pmAtomValue atom;
    const int rc =
        pmExtractValue(set->valfmt, &set->vlist[0], PM_TYPE_STRING, &atom, PM_TYPE_STRING);
    if (rc < 0) return rc;
    const std::string spec = atom.cp;
    free(atom.cp);
    auto counting = Configured(spec);
    if (!counting->ok()) return PM_ERR_BADSTORE;
    Adopt(std::move(counting));
    pmdaRehash(pmda, g_metrics.data(), static_cast<int>(g_metrics.size()));
    pmdaExtSetFlags(pmda, PMDA_EXT_NAMES_CHANGE);
  }
  return 0;
}

int Pmid(const char *name, pmID *pmid, pmdaExt *) { return pmdaTreePMID(g_tree, name, pmid); }
int Name(pmID pmid, char ***names, pmdaExt *) { return pmdaTreeName(g_tree, pmid, names); }
int Children(const char *name, int traverse, char ***kids, int **status, pmdaExt *) {
  return pmdaTreeChildren(g_tree, name, traverse, kids, status);
}

}  // namespace

int main(int argc, char **argv) {
  pmSetProgname(argv[0]);
  pmdaInterface dispatch;
  pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), PMAPI, "pmapi.log", nullptr);

  std::string config_path = std::string(pmGetConfig("PCP_SYSCONF_DIR")) + "/pmapi/pmapi.conf";
  static pmLongOptions options[] = {
      PMDA_OPTIONS_HEADER("Options"),
      PMOPT_DEBUG,
      PMDAOPT_DOMAIN,
      PMDAOPT_LOGFILE,
      {"config", 1, 'c', "FILE", "configuration file [default $PCP_SYSCONF_DIR/pmapi/pmapi.conf]"},
      PMOPT_HELP,
      PMDA_OPTIONS_END};
  pmdaOptions opts = {};
  opts.short_options = "D:d:l:c:?";
  opts.long_options = options;
  int c;
  while ((c = pmdaGetOptions(argc, argv, &opts, &dispatch)) != EOF) {
    if (c == 'c') config_path = opts.optarg;
  }
  if (opts.errors) {
    pmdaUsageMessage(&opts);
    return 1;
  }
  pmdaOpenLog(&dispatch);

  std::string why;
  if (!pmapi_pcp::ReadAgentConfig(config_path, &g_config, &why)) {
    pmNotifyErr(LOG_ERR, "%s", why.c_str());
    return 1;
  }
  for (int s = 0; s < kIndoms; ++s) {
    g_indoms[s].it_indom = pmInDom_build(PMAPI, static_cast<unsigned>(s));
  }
  Adopt(Configured(g_config.events));

  dispatch.version.seven.fetch = Fetch;
  dispatch.version.seven.instance = Instance;
  dispatch.version.seven.text = Text;
  dispatch.version.seven.pmid = Pmid;
  dispatch.version.seven.name = Name;
  dispatch.version.seven.children = Children;
  dispatch.version.seven.attribute = Attribute;
  dispatch.version.seven.store = Store;
  pmdaSetEndContextCallBack(&dispatch, EndContext);
  pmdaSetCommFlags(&dispatch, PMDA_FLAG_AUTHORIZE);
  pmdaSetFetchCallBack(&dispatch, FetchValue);
  pmdaSetLabelCallBack(&dispatch, CpuLabels);
  pmdaInit(&dispatch, g_indoms, kIndoms, g_metrics.data(), static_cast<int>(g_metrics.size()));
  pmdaConnect(&dispatch);
  pmdaMain(&dispatch);
  return 0;
}
