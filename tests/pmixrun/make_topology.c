/* Writes an hwloc XML topology of a node that is not this one, for the
 * placement tests (HWLOC_XMLFILE=<file> pmixrun ...):
 *   make_topology "pack:2 core:64 pu:1" out.xml
 * The description is hwloc's synthetic syntax. */
#include <hwloc.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: make_topology \"<hwloc synthetic description>\" <out.xml>\n");
        return 2;
    }
    hwloc_topology_t topology;
    if (hwloc_topology_init(&topology) != 0 || hwloc_topology_set_synthetic(topology, argv[1]) != 0 ||
        hwloc_topology_load(topology) != 0) {
        fprintf(stderr, "make_topology: hwloc cannot build \"%s\"\n", argv[1]);
        return 1;
    }
    const int rc = hwloc_topology_export_xml(topology, argv[2], 0);
    hwloc_topology_destroy(topology);
    if (rc != 0) {
        fprintf(stderr, "make_topology: cannot write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
