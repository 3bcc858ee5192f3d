// hwloc loads every plugin it finds at the first topology a process builds.
// Two of Debian's serve nothing a launcher needs and cost 2.5-4 ms of every
// pmixrun start (perf stat of `pmixrun -n 1 true`, docs/pmixrun.md):
// hwloc_gl (X11 and xcb, for display devices) and hwloc_xml_libxml (libxml2
// and ICU; hwloc's own XML reader and writer take over). pmixrun leaves them
// out for itself, unless the user chose the list (HWLOC_PLUGINS_BLACKLIST);
// its children get the user's environment as it was.
#ifndef PMIXRUN_HWLOC_PLUGINS_H
#define PMIXRUN_HWLOC_PLUGINS_H

namespace pmixrun {

// Before anything in this process builds a topology.
void leave_out_unneeded_hwloc_plugins();
// True for an environment entry ("NAME=value") that pmixrun set for itself
// and does not pass on.
bool own_hwloc_setting(const char *entry);

}  // namespace pmixrun

#endif
