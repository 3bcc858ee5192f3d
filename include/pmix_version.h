/*
 * pmixpp: version of the PMIx interface these headers describe.
 *
 * The numbers are those of the OpenPMIx release whose ABI libpmix.so.2 matches,
 * so that code testing PMIX_VERSION_* or PMIX_NUMERIC_VERSION keeps working.
 */
#ifndef PMIx_VERSION_H
#define PMIx_VERSION_H

#define PMIX_VERSION_MAJOR 4L
#define PMIX_VERSION_MINOR 2L
#define PMIX_VERSION_RELEASE 2L

/* 0x00MMmmrr: major, minor, release */
#define PMIX_NUMERIC_VERSION 0x00040202

#endif /* PMIx_VERSION_H */
