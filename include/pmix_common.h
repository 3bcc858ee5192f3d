/*
 * pmixpp: definitions shared by the client, server and tool interfaces of the
 * PMIx standard (Process Management Interface for Exascale).
 *
 * The layout of every structure and the value of every constant match
 * OpenPMIx 4.2.2 on the same platform, so that programs built against either set
 * of headers run with either libpmix.so.2; tests/abi/ checks that.
 *
 * Contents:
 *   1. Platform includes and export macro
 *   2. Numeric constants and scalar types     (generated block)
 *   3. Enumerations
 *   4. Attribute keys of the 4.2 standard     (generated block)
 *   5. Constants newer than 4.2               (generated blocks)
 *   6. Structures
 *   7. Callback types
 *   8. Library functions that macros of this header rely on
 *   9. Inline helpers (argv, environment, bounded strings), also under the
 *      names OpenPMIx 4.2 gives them (pmix_argv_split, pmix_strncpy, ...)
 *  10. Macros: keys, namespaces, procs, values, info, and the other structures
 *
 * Blocks between @generated-begin and @generated-end markers are rewritten by
 * cmake/abi/gen_header_constants.py from tests/abi/data/; edit the data, not the block.
 */
#ifndef PMIx_COMMON_H
#define PMIx_COMMON_H

/* ======================================================================== */
/* 1. Platform includes and export macro                                    */
/* ======================================================================== */

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>   /* struct timeval */
#include <sys/types.h>  /* pid_t, uid_t, gid_t */
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Strict ISO C modes hide these POSIX functions, which the environment helpers use */
#if !defined(__cplusplus) && defined(__STRICT_ANSI__) && !defined(_POSIX_C_SOURCE)
extern int setenv(const char *name, const char *value, int overwrite);
extern int unsetenv(const char *name);
#endif

/* Public functions are the only symbols libpmix.so.2 exports. */
#define PMIX_HAVE_VISIBILITY 1
#if PMIX_HAVE_VISIBILITY == 1
#define PMIX_EXPORT __attribute__((visibility("default")))
#else
#define PMIX_EXPORT
#endif

#include <pmix_version.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ======================================================================== */
/* 2. Numeric constants and scalar types                                    */
/* ======================================================================== */

/* @generated-begin numbers */
/* Name lengths */
#define PMIX_MAX_NSLEN                           255
#define PMIX_MAX_KEYLEN                          511

/* Process ranks */
typedef uint32_t pmix_rank_t;
#define PMIX_RANK_UNDEF                          UINT32_MAX
#define PMIX_RANK_WILDCARD                       (UINT32_MAX - 1)
#define PMIX_RANK_LOCAL_NODE                     (UINT32_MAX - 2)
#define PMIX_RANK_LOCAL_PEERS                    (UINT32_MAX - 4)
#define PMIX_RANK_INVALID                        (UINT32_MAX - 3)
#define PMIX_RANK_VALID                          (UINT32_MAX - 50)
#define PMIX_APP_WILDCARD                        UINT32_MAX

/* Process states */
typedef uint8_t pmix_proc_state_t;
#define PMIX_PROC_STATE_UNDEF                    0
#define PMIX_PROC_STATE_PREPPED                  1
#define PMIX_PROC_STATE_LAUNCH_UNDERWAY          2
#define PMIX_PROC_STATE_RESTART                  3
#define PMIX_PROC_STATE_TERMINATE                4
#define PMIX_PROC_STATE_RUNNING                  5
#define PMIX_PROC_STATE_CONNECTED                6
#define PMIX_PROC_STATE_UNTERMINATED             15
#define PMIX_PROC_STATE_TERMINATED               20
#define PMIX_PROC_STATE_ERROR                    50
#define PMIX_PROC_STATE_KILLED_BY_CMD            51
#define PMIX_PROC_STATE_ABORTED                  52
#define PMIX_PROC_STATE_FAILED_TO_START          53
#define PMIX_PROC_STATE_ABORTED_BY_SIG           54
#define PMIX_PROC_STATE_TERM_WO_SYNC             55
#define PMIX_PROC_STATE_COMM_FAILED              56
#define PMIX_PROC_STATE_SENSOR_BOUND_EXCEEDED    57
#define PMIX_PROC_STATE_CALLED_ABORT             58
#define PMIX_PROC_STATE_HEARTBEAT_FAILED         59
#define PMIX_PROC_STATE_MIGRATING                60
#define PMIX_PROC_STATE_CANNOT_RESTART           61
#define PMIX_PROC_STATE_TERM_NON_ZERO            62
#define PMIX_PROC_STATE_FAILED_TO_LAUNCH         63

/* Job states */
typedef uint8_t pmix_job_state_t;
#define PMIX_JOB_STATE_UNDEF                     0
#define PMIX_JOB_STATE_AWAITING_ALLOC            1
#define PMIX_JOB_STATE_LAUNCH_UNDERWAY           2
#define PMIX_JOB_STATE_RUNNING                   3
#define PMIX_JOB_STATE_SUSPENDED                 4
#define PMIX_JOB_STATE_CONNECTED                 5
#define PMIX_JOB_STATE_UNTERMINATED              15
#define PMIX_JOB_STATE_TERMINATED                20
#define PMIX_JOB_STATE_TERMINATED_WITH_ERROR     50

/* Status codes */
typedef int pmix_status_t;
#define PMIX_SUCCESS                             0
#define PMIX_ERROR                               (-1)
#define PMIX_ERR_PROC_RESTART                    (-4)
#define PMIX_ERR_PROC_CHECKPOINT                 (-5)
#define PMIX_ERR_PROC_MIGRATE                    (-6)
#define PMIX_ERR_EXISTS                          (-11)
#define PMIX_ERR_INVALID_CRED                    (-12)
#define PMIX_ERR_WOULD_BLOCK                     (-15)
#define PMIX_ERR_UNKNOWN_DATA_TYPE               (-16)
#define PMIX_ERR_TYPE_MISMATCH                   (-18)
#define PMIX_ERR_UNPACK_INADEQUATE_SPACE         (-19)
#define PMIX_ERR_UNPACK_FAILURE                  (-20)
#define PMIX_ERR_PACK_FAILURE                    (-21)
#define PMIX_ERR_NO_PERMISSIONS                  (-23)
#define PMIX_ERR_TIMEOUT                         (-24)
#define PMIX_ERR_UNREACH                         (-25)
#define PMIX_ERR_BAD_PARAM                       (-27)
#define PMIX_ERR_RESOURCE_BUSY                   (-28)
#define PMIX_ERR_OUT_OF_RESOURCE                 (-29)
#define PMIX_ERR_INIT                            (-31)
#define PMIX_ERR_NOMEM                           (-32)
#define PMIX_ERR_NOT_FOUND                       (-46)
#define PMIX_ERR_NOT_SUPPORTED                   (-47)
#define PMIX_ERR_PARAM_VALUE_NOT_SUPPORTED       (-59)
#define PMIX_ERR_COMM_FAILURE                    (-49)
#define PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER  (-50)
#define PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES  (-51)
#define PMIX_ERR_PARTIAL_SUCCESS                 (-52)
#define PMIX_ERR_DUPLICATE_KEY                   (-53)
#define PMIX_ERR_EMPTY                           (-60)
#define PMIX_ERR_LOST_CONNECTION                 (-61)
#define PMIX_ERR_EXISTS_OUTSIDE_SCOPE            (-62)

/* Event codes */
#define PMIX_PROCESS_SET_DEFINE                  (-55)
#define PMIX_PROCESS_SET_DELETE                  (-56)
#define PMIX_DEBUGGER_RELEASE                    (-3)
#define PMIX_READY_FOR_DEBUG                     (-58)
#define PMIX_QUERY_PARTIAL_SUCCESS               (-104)
#define PMIX_JCTRL_CHECKPOINT                    (-106)
#define PMIX_JCTRL_CHECKPOINT_COMPLETE           (-107)
#define PMIX_JCTRL_PREEMPT_ALERT                 (-108)
#define PMIX_MONITOR_HEARTBEAT_ALERT             (-109)
#define PMIX_MONITOR_FILE_ALERT                  (-110)
#define PMIX_PROC_TERMINATED                     (-111)
#define PMIX_ERR_EVENT_REGISTRATION              (-144)
#define PMIX_MODEL_DECLARED                      (-147)
#define PMIX_MODEL_RESOURCES                     (-151)
#define PMIX_OPENMP_PARALLEL_ENTERED             (-152)
#define PMIX_OPENMP_PARALLEL_EXITED              (-153)
#define PMIX_LAUNCHER_READY                      (-155)
#define PMIX_OPERATION_IN_PROGRESS               (-156)
#define PMIX_OPERATION_SUCCEEDED                 (-157)
#define PMIX_ERR_INVALID_OPERATION               (-158)
#define PMIX_GROUP_INVITED                       (-159)
#define PMIX_GROUP_LEFT                          (-160)
#define PMIX_GROUP_INVITE_ACCEPTED               (-161)
#define PMIX_GROUP_INVITE_DECLINED               (-162)
#define PMIX_GROUP_INVITE_FAILED                 (-163)
#define PMIX_GROUP_MEMBERSHIP_UPDATE             (-164)
#define PMIX_GROUP_CONSTRUCT_ABORT               (-165)
#define PMIX_GROUP_CONSTRUCT_COMPLETE            (-166)
#define PMIX_GROUP_LEADER_SELECTED               (-167)
#define PMIX_GROUP_LEADER_FAILED                 (-168)
#define PMIX_GROUP_CONTEXT_ID_ASSIGNED           (-169)
#define PMIX_GROUP_MEMBER_FAILED                 (-170)
#define PMIX_ERR_REPEAT_ATTR_REGISTRATION        (-171)
#define PMIX_ERR_IOF_FAILURE                     (-172)
#define PMIX_ERR_IOF_COMPLETE                    (-173)
#define PMIX_LAUNCH_COMPLETE                     (-174)
#define PMIX_FABRIC_UPDATED                      (-175)
#define PMIX_FABRIC_UPDATE_PENDING               (-176)
#define PMIX_FABRIC_UPDATE_ENDPOINTS             (-113)

/* Why a job ended */
#define PMIX_ERR_JOB_APP_NOT_EXECUTABLE          (-177)
#define PMIX_ERR_JOB_NO_EXE_SPECIFIED            (-178)
#define PMIX_ERR_JOB_FAILED_TO_MAP               (-179)
#define PMIX_ERR_JOB_CANCELED                    (-180)
#define PMIX_ERR_JOB_FAILED_TO_LAUNCH            (-181)
#define PMIX_ERR_JOB_ABORTED                     (-182)
#define PMIX_ERR_JOB_KILLED_BY_CMD               (-183)
#define PMIX_ERR_JOB_ABORTED_BY_SIG              (-184)
#define PMIX_ERR_JOB_TERM_WO_SYNC                (-185)
#define PMIX_ERR_JOB_SENSOR_BOUND_EXCEEDED       (-186)
#define PMIX_ERR_JOB_NON_ZERO_TERM               (-187)
#define PMIX_ERR_JOB_ALLOC_FAILED                (-188)
#define PMIX_ERR_JOB_ABORTED_BY_SYS_EVENT        (-189)
#define PMIX_ERR_JOB_EXE_NOT_FOUND               (-190)
#define PMIX_ERR_JOB_WDIR_NOT_FOUND              (-233)
#define PMIX_ERR_JOB_INSUFFICIENT_RESOURCES      (-234)
#define PMIX_ERR_JOB_SYS_OP_FAILED               (-235)

/* Job and session events */
#define PMIX_EVENT_JOB_START                     (-191)
#define PMIX_EVENT_JOB_END                       (-145)
#define PMIX_EVENT_SESSION_START                 (-192)
#define PMIX_EVENT_SESSION_END                   (-193)

/* Why a process ended */
#define PMIX_ERR_PROC_REQUESTED_ABORT            (-8)
#define PMIX_ERR_PROC_TERM_WO_SYNC               (-200)
#define PMIX_EVENT_PROC_TERMINATED               (-201)
#define PMIX_ERR_PROC_KILLED_BY_CMD              (-400)
#define PMIX_ERR_PROC_FAILED_TO_START            (-401)
#define PMIX_ERR_PROC_ABORTED_BY_SIG             (-402)
#define PMIX_ERR_PROC_SENSOR_BOUND_EXCEEDED      (-403)
#define PMIX_ERR_EXIT_NONZERO_TERM               (-404)

/* System events */
#define PMIX_EVENT_SYS_BASE                      (-230)
#define PMIX_EVENT_NODE_DOWN                     (-231)
#define PMIX_EVENT_NODE_OFFLINE                  (-232)
#define PMIX_EVENT_SYS_OTHER                     (-330)

/* What an event handler did */
#define PMIX_EVENT_NO_ACTION_TAKEN               (-331)
#define PMIX_EVENT_PARTIAL_ACTION_TAKEN          (-332)
#define PMIX_EVENT_ACTION_DEFERRED               (-333)
#define PMIX_EVENT_ACTION_COMPLETE               (-334)

/* Codes below this one belong to the host */
#define PMIX_EXTERNAL_ERR_BASE                   (-3000)

/* Data types */
typedef uint16_t pmix_data_type_t;
#define PMIX_UNDEF                               0
#define PMIX_BOOL                                1
#define PMIX_BYTE                                2
#define PMIX_STRING                              3
#define PMIX_SIZE                                4
#define PMIX_PID                                 5
#define PMIX_INT                                 6
#define PMIX_INT8                                7
#define PMIX_INT16                               8
#define PMIX_INT32                               9
#define PMIX_INT64                               10
#define PMIX_UINT                                11
#define PMIX_UINT8                               12
#define PMIX_UINT16                              13
#define PMIX_UINT32                              14
#define PMIX_UINT64                              15
#define PMIX_FLOAT                               16
#define PMIX_DOUBLE                              17
#define PMIX_TIMEVAL                             18
#define PMIX_TIME                                19
#define PMIX_STATUS                              20
#define PMIX_VALUE                               21
#define PMIX_PROC                                22
#define PMIX_APP                                 23
#define PMIX_INFO                                24
#define PMIX_PDATA                               25
#define PMIX_BYTE_OBJECT                         27
#define PMIX_KVAL                                28
#define PMIX_PERSIST                             30
#define PMIX_POINTER                             31
#define PMIX_SCOPE                               32
#define PMIX_DATA_RANGE                          33
#define PMIX_COMMAND                             34
#define PMIX_INFO_DIRECTIVES                     35
#define PMIX_DATA_TYPE                           36
#define PMIX_PROC_STATE                          37
#define PMIX_PROC_INFO                           38
#define PMIX_DATA_ARRAY                          39
#define PMIX_PROC_RANK                           40
#define PMIX_QUERY                               41
#define PMIX_COMPRESSED_STRING                   42
#define PMIX_ALLOC_DIRECTIVE                     43
#define PMIX_IOF_CHANNEL                         45
#define PMIX_ENVAR                               46
#define PMIX_COORD                               47
#define PMIX_REGATTR                             48
#define PMIX_REGEX                               49
#define PMIX_JOB_STATE                           50
#define PMIX_LINK_STATE                          51
#define PMIX_PROC_CPUSET                         52
#define PMIX_GEOMETRY                            53
#define PMIX_DEVICE_DIST                         54
#define PMIX_ENDPOINT                            55
#define PMIX_TOPO                                56
#define PMIX_DEVTYPE                             57
#define PMIX_LOCTYPE                             58
#define PMIX_COMPRESSED_BYTE_OBJECT              59
#define PMIX_PROC_NSPACE                         60
#define PMIX_PROC_STATS                          61
#define PMIX_DISK_STATS                          62
#define PMIX_NET_STATS                           63
#define PMIX_NODE_STATS                          64
#define PMIX_DATA_BUFFER                         65
#define PMIX_STOR_MEDIUM                         66
#define PMIX_STOR_ACCESS                         67
#define PMIX_STOR_PERSIST                        68
#define PMIX_STOR_ACCESS_TYPE                    69
#define PMIX_DATA_TYPE_MAX                       500

/* Scope of data put by a process */
typedef uint8_t pmix_scope_t;
#define PMIX_SCOPE_UNDEF                         0
#define PMIX_LOCAL                               1
#define PMIX_REMOTE                              2
#define PMIX_GLOBAL                              3
#define PMIX_INTERNAL                            4

/* Ranges of published data and events */
typedef uint8_t pmix_data_range_t;
#define PMIX_RANGE_UNDEF                         0
#define PMIX_RANGE_RM                            1
#define PMIX_RANGE_LOCAL                         2
#define PMIX_RANGE_NAMESPACE                     3
#define PMIX_RANGE_SESSION                       4
#define PMIX_RANGE_GLOBAL                        5
#define PMIX_RANGE_CUSTOM                        6
#define PMIX_RANGE_PROC_LOCAL                    7
#define PMIX_RANGE_INVALID                       UINT8_MAX

/* Persistence of published data */
typedef uint8_t pmix_persistence_t;
#define PMIX_PERSIST_INDEF                       0
#define PMIX_PERSIST_FIRST_READ                  1
#define PMIX_PERSIST_PROC                        2
#define PMIX_PERSIST_APP                         3
#define PMIX_PERSIST_SESSION                     4
#define PMIX_PERSIST_INVALID                     UINT8_MAX

/* Flags of a pmix_info_t */
typedef uint32_t pmix_info_directives_t;
#define PMIX_INFO_REQD                           0x01
#define PMIX_INFO_ARRAY_END                      0x02
#define PMIX_INFO_REQD_PROCESSED                 0x04
#define PMIX_INFO_QUALIFIER                      0x08
#define PMIX_INFO_PERSISTENT                     0x10
#define PMIX_INFO_DIR_RESERVED                   0xffff0000U

/* Allocation requests */
typedef uint8_t pmix_alloc_directive_t;
#define PMIX_ALLOC_NEW                           1
#define PMIX_ALLOC_EXTEND                        2
#define PMIX_ALLOC_RELEASE                       3
#define PMIX_ALLOC_REAQUIRE                      4
#define PMIX_ALLOC_EXTERNAL                      128

/* I/O forwarding channels */
typedef uint16_t pmix_iof_channel_t;
#define PMIX_FWD_NO_CHANNELS                     0x00
#define PMIX_FWD_STDIN_CHANNEL                   0x01
#define PMIX_FWD_STDOUT_CHANNEL                  0x02
#define PMIX_FWD_STDERR_CHANNEL                  0x04
#define PMIX_FWD_STDDIAG_CHANNEL                 0x08
#define PMIX_FWD_ALL_CHANNELS                    0xff

/* Storage media */
typedef uint64_t pmix_storage_medium_t;
#define PMIX_STORAGE_MEDIUM_UNKNOWN              0x01
#define PMIX_STORAGE_MEDIUM_TAPE                 0x02
#define PMIX_STORAGE_MEDIUM_HDD                  0x04
#define PMIX_STORAGE_MEDIUM_SSD                  0x08
#define PMIX_STORAGE_MEDIUM_NVME                 0x10
#define PMIX_STORAGE_MEDIUM_PMEM                 0x20
#define PMIX_STORAGE_MEDIUM_RAM                  0x40

/* Storage accessibility */
typedef uint64_t pmix_storage_accessibility_t;
#define PMIX_STORAGE_ACCESSIBILITY_NODE          0x01
#define PMIX_STORAGE_ACCESSIBILITY_SESSION       0x02
#define PMIX_STORAGE_ACCESSIBILITY_JOB           0x04
#define PMIX_STORAGE_ACCESSIBILITY_RACK          0x08
#define PMIX_STORAGE_ACCESSIBILITY_CLUSTER       0x10
#define PMIX_STORAGE_ACCESSIBILITY_REMOTE        0x20

/* Storage persistence */
typedef uint64_t pmix_storage_persistence_t;
#define PMIX_STORAGE_PERSISTENCE_TEMPORARY       0x01
#define PMIX_STORAGE_PERSISTENCE_NODE            0x02
#define PMIX_STORAGE_PERSISTENCE_SESSION         0x04
#define PMIX_STORAGE_PERSISTENCE_JOB             0x08
#define PMIX_STORAGE_PERSISTENCE_SCRATCH         0x10
#define PMIX_STORAGE_PERSISTENCE_PROJECT         0x20
#define PMIX_STORAGE_PERSISTENCE_ARCHIVE         0x40

/* Storage access modes */
typedef uint16_t pmix_storage_access_type_t;
#define PMIX_STORAGE_ACCESS_RD                   0x01
#define PMIX_STORAGE_ACCESS_WR                   0x02
#define PMIX_STORAGE_ACCESS_RDWR                 0x03

/* Coordinate views */
typedef uint8_t pmix_coord_view_t;
#define PMIX_COORD_VIEW_UNDEF                    0
#define PMIX_COORD_LOGICAL_VIEW                  1
#define PMIX_COORD_PHYSICAL_VIEW                 2

/* Link states */
typedef uint8_t pmix_link_state_t;
#define PMIX_LINK_STATE_UNKNOWN                  0
#define PMIX_LINK_DOWN                           1
#define PMIX_LINK_UP                             2

/* Binding envelopes */
typedef uint8_t pmix_bind_envelope_t;
#define PMIX_CPUBIND_PROCESS                     0
#define PMIX_CPUBIND_THREAD                      1

/* Relative locality */
typedef uint16_t pmix_locality_t;
#define PMIX_LOCALITY_UNKNOWN                    0x00
#define PMIX_LOCALITY_NONLOCAL                   0x8000
#define PMIX_LOCALITY_SHARE_HWTHREAD             0x01
#define PMIX_LOCALITY_SHARE_CORE                 0x02
#define PMIX_LOCALITY_SHARE_L1CACHE              0x04
#define PMIX_LOCALITY_SHARE_L2CACHE              0x08
#define PMIX_LOCALITY_SHARE_L3CACHE              0x10
#define PMIX_LOCALITY_SHARE_PACKAGE              0x20
#define PMIX_LOCALITY_SHARE_NUMA                 0x40
#define PMIX_LOCALITY_SHARE_NODE                 0x4000

/* Device types */
typedef uint64_t pmix_device_type_t;
#define PMIX_DEVTYPE_UNKNOWN                     0x00
#define PMIX_DEVTYPE_BLOCK                       0x01
#define PMIX_DEVTYPE_GPU                         0x02
#define PMIX_DEVTYPE_NETWORK                     0x04
#define PMIX_DEVTYPE_OPENFABRICS                 0x08
#define PMIX_DEVTYPE_DMA                         0x10
#define PMIX_DEVTYPE_COPROC                      0x20
/* @generated-end numbers */

/* A namespace and a key are fixed-size, NUL-terminated character arrays. */
typedef char pmix_nspace_t[PMIX_MAX_NSLEN + 1];
typedef char pmix_key_t[PMIX_MAX_KEYLEN + 1];

/* ======================================================================== */
/* 3. Enumerations                                                          */
/* ======================================================================== */

/* Result of PMIx_Value_compare */
typedef enum {
    PMIX_EQUAL,
    PMIX_VALUE1_GREATER,
    PMIX_VALUE2_GREATER,
    PMIX_VALUE_TYPE_DIFFERENT,
    PMIX_VALUE_INCOMPATIBLE_OBJECTS,
    PMIX_VALUE_COMPARISON_NOT_AVAIL
} pmix_value_cmp_t;

/* Answer of a process invited into a group */
typedef enum {
    PMIX_GROUP_DECLINE,
    PMIX_GROUP_ACCEPT
} pmix_group_opt_t;

/* Operation a group callback reports on */
typedef enum {
    PMIX_GROUP_CONSTRUCT,
    PMIX_GROUP_DESTRUCT
} pmix_group_operation_t;

/* How PMIX_INFO_TRUE reads the value of a pmix_info_t */
typedef enum {
    PMIX_BOOL_TRUE,
    PMIX_BOOL_FALSE,
    PMIX_NON_BOOL
} pmix_boolean_t;

/* Operation requested from the fabric support of the host */
typedef enum {
    PMIX_FABRIC_REQUEST_INFO,
    PMIX_FABRIC_UPDATE_INFO
} pmix_fabric_operation_t;

/* ======================================================================== */
/* 4. Attribute keys of the 4.2 standard                                    */
/*    (the comment names the type of the value that goes with the key)      */
/* ======================================================================== */

/* @generated-begin attributes */
/* Environment variables for launcher rendezvous */
#define PMIX_LAUNCHER_RNDZ_URI                   "PMIX_LAUNCHER_RNDZ_URI"
#define PMIX_LAUNCHER_RNDZ_FILE                  "PMIX_LAUNCHER_RNDZ_FILE"
#define PMIX_KEEPALIVE_PIPE                      "PMIX_KEEPALIVE_PIPE"

/* The undefined attribute */
#define PMIX_ATTR_UNDEF                          "pmix.undef"

/* Initialization of servers, clients and tools */
#define PMIX_EXTERNAL_PROGRESS                   "pmix.evext"                    /* bool */
#define PMIX_SERVER_TOOL_SUPPORT                 "pmix.srvr.tool"                /* bool */
#define PMIX_SERVER_REMOTE_CONNECTIONS           "pmix.srvr.remote"              /* bool */
#define PMIX_SERVER_SYSTEM_SUPPORT               "pmix.srvr.sys"                 /* bool */
#define PMIX_SERVER_SESSION_SUPPORT              "pmix.srvr.sess"                /* bool */
#define PMIX_SERVER_TMPDIR                       "pmix.srvr.tmpdir"              /* char* */
#define PMIX_SYSTEM_TMPDIR                       "pmix.sys.tmpdir"               /* char* */
#define PMIX_SERVER_SHARE_TOPOLOGY               "pmix.srvr.share"               /* bool */
#define PMIX_SERVER_ENABLE_MONITORING            "pmix.srv.monitor"              /* bool */
#define PMIX_SERVER_NSPACE                       "pmix.srv.nspace"               /* char* */
#define PMIX_SERVER_RANK                         "pmix.srv.rank"                 /* pmix_rank_t */
#define PMIX_SERVER_GATEWAY                      "pmix.srv.gway"                 /* bool */
#define PMIX_SERVER_SCHEDULER                    "pmix.srv.sched"                /* bool */
#define PMIX_SERVER_START_TIME                   "pmix.srv.strtime"              /* char* */
#define PMIX_HOMOGENEOUS_SYSTEM                  "pmix.homo"                     /* bool */
#define PMIX_SINGLETON                           "pmix.singleton"                /* char* */
#define PMIX_BIND_PROGRESS_THREAD                "pmix.bind.pt"                  /* char* */
#define PMIX_BIND_REQUIRED                       "pmix.bind.reqd"                /* bool */
#define PMIX_TOOL_NSPACE                         "pmix.tool.nspace"              /* char* */
#define PMIX_TOOL_RANK                           "pmix.tool.rank"                /* uint32_t */
#define PMIX_SERVER_PIDINFO                      "pmix.srvr.pidinfo"             /* pid_t */
#define PMIX_CONNECT_TO_SYSTEM                   "pmix.cnct.sys"                 /* bool */
#define PMIX_CONNECT_SYSTEM_FIRST                "pmix.cnct.sys.first"           /* bool */
#define PMIX_SERVER_URI                          "pmix.srvr.uri"                 /* char* */
#define PMIX_MYSERVER_URI                        "pmix.mysrvr.uri"               /* char* */
#define PMIX_SERVER_HOSTNAME                     "pmix.srvr.host"                /* char* */
#define PMIX_CONNECT_MAX_RETRIES                 "pmix.tool.mretries"            /* uint32_t */
#define PMIX_CONNECT_RETRY_DELAY                 "pmix.tool.retry"               /* uint32_t */
#define PMIX_TOOL_DO_NOT_CONNECT                 "pmix.tool.nocon"               /* bool */
#define PMIX_TOOL_CONNECT_OPTIONAL               "pmix.tool.conopt"              /* bool */
#define PMIX_LAUNCHER                            "pmix.tool.launcher"            /* bool */
#define PMIX_LAUNCHER_RENDEZVOUS_FILE            "pmix.tool.lncrnd"              /* char* */
#define PMIX_TOOL_ATTACHMENT_FILE                "pmix.tool.attach"              /* char* */
#define PMIX_PRIMARY_SERVER                      "pmix.pri.srvr"                 /* bool */
#define PMIX_NOHUP                               "pmix.nohup"                    /* bool */
#define PMIX_LAUNCHER_DAEMON                     "pmix.lnch.dmn"                 /* char* */
#define PMIX_EXEC_AGENT                          "pmix.exec.agnt"                /* char* */
#define PMIX_LAUNCH_DIRECTIVES                   "pmix.lnch.dirs"                /* pmix_data_array_t* */

/* Who is asking */
#define PMIX_USERID                              "pmix.euid"                     /* uint32_t */
#define PMIX_GRPID                               "pmix.egid"                     /* uint32_t */
#define PMIX_VERSION_INFO                        "pmix.version"                  /* char* */
#define PMIX_REQUESTOR_IS_TOOL                   "pmix.req.tool"                 /* bool */
#define PMIX_REQUESTOR_IS_CLIENT                 "pmix.req.client"               /* bool */

/* Process sets */
#define PMIX_PSET_NAME                           "pmix.pset.nm"                  /* char* */
#define PMIX_PSET_NAMES                          "pmix.pset.nms"                 /* pmix_data_array_t* */
#define PMIX_PSET_MEMBERS                        "pmix.pset.mems"                /* pmix_data_array_t* */
#define PMIX_REINCARNATION                       "pmix.reinc"                    /* uint32_t */

/* Programming models */
#define PMIX_PROGRAMMING_MODEL                   "pmix.pgm.model"                /* char* */
#define PMIX_MODEL_LIBRARY_NAME                  "pmix.mdl.name"                 /* char* */
#define PMIX_MODEL_LIBRARY_VERSION               "pmix.mld.vrs"                  /* char* */
#define PMIX_THREADING_MODEL                     "pmix.threads"                  /* char* */
#define PMIX_MODEL_NUM_THREADS                   "pmix.mdl.nthrds"               /* uint64_t */
#define PMIX_MODEL_NUM_CPUS                      "pmix.mdl.ncpu"                 /* uint64_t */
#define PMIX_MODEL_CPU_TYPE                      "pmix.mdl.cputype"              /* char* */
#define PMIX_MODEL_PHASE_NAME                    "pmix.mdl.phase"                /* char* */
#define PMIX_MODEL_PHASE_TYPE                    "pmix.mdl.ptype"                /* char* */
#define PMIX_MODEL_AFFINITY_POLICY               "pmix.mdl.tap"                  /* char* */

/* TCP transport */
#define PMIX_TCP_REPORT_URI                      "pmix.tcp.repuri"               /* char* */
#define PMIX_TCP_URI                             "pmix.tcp.uri"                  /* char* */
#define PMIX_TCP_IF_INCLUDE                      "pmix.tcp.ifinclude"            /* char* */
#define PMIX_TCP_IF_EXCLUDE                      "pmix.tcp.ifexclude"            /* char* */
#define PMIX_TCP_IPV4_PORT                       "pmix.tcp.ipv4"                 /* int */
#define PMIX_TCP_IPV6_PORT                       "pmix.tcp.ipv6"                 /* int */
#define PMIX_TCP_DISABLE_IPV4                    "pmix.tcp.disipv4"              /* bool */
#define PMIX_TCP_DISABLE_IPV6                    "pmix.tcp.disipv6"              /* bool */

/* Binding, credentials and placement */
#define PMIX_CPUSET                              "pmix.cpuset"                   /* char* */
#define PMIX_CPUSET_BITMAP                       "pmix.bitmap"                   /* pmix_cpuset_t* */
#define PMIX_CREDENTIAL                          "pmix.cred"                     /* char* */
#define PMIX_SPAWNED                             "pmix.spawned"                  /* bool */
#define PMIX_NODE_OVERSUBSCRIBED                 "pmix.ndosub"                   /* bool */

/* Temporary directories */
#define PMIX_TMPDIR                              "pmix.tmpdir"                   /* char* */
#define PMIX_NSDIR                               "pmix.nsdir"                    /* char* */
#define PMIX_PROCDIR                             "pmix.pdir"                     /* char* */
#define PMIX_TDIR_RMCLEAN                        "pmix.tdir.rmclean"             /* bool */

/* Identity of a process */
#define PMIX_CLUSTER_ID                          "pmix.clid"                     /* char* */
#define PMIX_PROCID                              "pmix.procid"                   /* pmix_proc_t* */
#define PMIX_NSPACE                              "pmix.nspace"                   /* char* */
#define PMIX_JOBID                               "pmix.jobid"                    /* char* */
#define PMIX_APPNUM                              "pmix.appnum"                   /* uint32_t */
#define PMIX_RANK                                "pmix.rank"                     /* pmix_rank_t */
#define PMIX_GLOBAL_RANK                         "pmix.grank"                    /* pmix_rank_t */
#define PMIX_APP_RANK                            "pmix.apprank"                  /* pmix_rank_t */
#define PMIX_NPROC_OFFSET                        "pmix.offset"                   /* pmix_rank_t */
#define PMIX_LOCAL_RANK                          "pmix.lrank"                    /* uint16_t */
#define PMIX_NODE_RANK                           "pmix.nrank"                    /* uint16_t */
#define PMIX_PACKAGE_RANK                        "pmix.pkgrank"                  /* uint16_t */
#define PMIX_LOCALLDR                            "pmix.lldr"                     /* pmix_rank_t */
#define PMIX_APPLDR                              "pmix.aldr"                     /* pmix_rank_t */
#define PMIX_PROC_PID                            "pmix.ppid"                     /* pid_t */

/* Sessions, nodes and job sizes */
#define PMIX_SESSION_ID                          "pmix.session.id"               /* uint32_t */
#define PMIX_NODE_LIST                           "pmix.nlist"                    /* char* */
#define PMIX_ALLOCATED_NODELIST                  "pmix.alist"                    /* char* */
#define PMIX_HOSTNAME                            "pmix.hname"                    /* char* */
#define PMIX_HOSTNAME_ALIASES                    "pmix.alias"                    /* char* */
#define PMIX_HOSTNAME_KEEP_FQDN                  "pmix.fqdn"                     /* bool */
#define PMIX_NODEID                              "pmix.nodeid"                   /* uint32_t */
#define PMIX_LOCAL_PEERS                         "pmix.lpeers"                   /* char* */
#define PMIX_LOCAL_PROCS                         "pmix.lprocs"                   /* pmix_data_array_t* */
#define PMIX_LOCAL_CPUSETS                       "pmix.lcpus"                    /* char* */
#define PMIX_PARENT_ID                           "pmix.parent"                   /* pmix_proc_t* */
#define PMIX_EXIT_CODE                           "pmix.exit.code"                /* int */
#define PMIX_UNIV_SIZE                           "pmix.univ.size"                /* uint32_t */
#define PMIX_JOB_SIZE                            "pmix.job.size"                 /* uint32_t */
#define PMIX_JOB_NUM_APPS                        "pmix.job.napps"                /* uint32_t */
#define PMIX_APP_SIZE                            "pmix.app.size"                 /* uint32_t */
#define PMIX_LOCAL_SIZE                          "pmix.local.size"               /* uint32_t */
#define PMIX_NODE_SIZE                           "pmix.node.size"                /* uint32_t */
#define PMIX_MAX_PROCS                           "pmix.max.size"                 /* uint32_t */
#define PMIX_NUM_SLOTS                           "pmix.num.slots"                /* uint32_t */
#define PMIX_NUM_NODES                           "pmix.num.nodes"                /* uint32_t */
#define PMIX_NUM_ALLOCATED_NODES                 "pmix.num.anodes"               /* uint32_t */

/* Memory and topology */
#define PMIX_AVAIL_PHYS_MEMORY                   "pmix.pmem"                     /* uint64_t */
#define PMIX_DAEMON_MEMORY                       "pmix.dmn.mem"                  /* float */
#define PMIX_CLIENT_AVG_MEMORY                   "pmix.cl.mem.avg"               /* float */
#define PMIX_TOPOLOGY2                           "pmix.topo2"                    /* pmix_topology_t* */
#define PMIX_LOCALITY_STRING                     "pmix.locstr"                   /* char* */

/* Directives for operations */
#define PMIX_COLLECT_DATA                        "pmix.collect"                  /* bool */
#define PMIX_ALL_CLONES_PARTICIPATE              "pmix.clone.part"               /* bool */
#define PMIX_COLLECT_GENERATED_JOB_INFO          "pmix.collect.gen"              /* bool */
#define PMIX_TIMEOUT                             "pmix.timeout"                  /* int */
#define PMIX_IMMEDIATE                           "pmix.immediate"                /* bool */
#define PMIX_WAIT                                "pmix.wait"                     /* int */
#define PMIX_NOTIFY_COMPLETION                   "pmix.notecomp"                 /* bool */
#define PMIX_RANGE                               "pmix.range"                    /* pmix_data_range_t */
#define PMIX_PERSISTENCE                         "pmix.persist"                  /* pmix_persistence_t */
#define PMIX_DATA_SCOPE                          "pmix.scope"                    /* pmix_scope_t */
#define PMIX_OPTIONAL                            "pmix.optional"                 /* bool */
#define PMIX_GET_STATIC_VALUES                   "pmix.get.static"               /* bool */
#define PMIX_GET_POINTER_VALUES                  "pmix.get.pntrs"                /* bool */
#define PMIX_EMBED_BARRIER                       "pmix.embed.barrier"            /* bool */
#define PMIX_JOB_TERM_STATUS                     "pmix.job.term.status"          /* pmix_status_t */
#define PMIX_PROC_TERM_STATUS                    "pmix.proc.term.status"         /* pmix_status_t */
#define PMIX_PROC_STATE_STATUS                   "pmix.proc.state"               /* pmix_proc_state_t */
#define PMIX_GET_REFRESH_CACHE                   "pmix.get.refresh"              /* bool */
#define PMIX_ACCESS_PERMISSIONS                  "pmix.aperms"                   /* pmix_data_array_t* */
#define PMIX_ACCESS_USERIDS                      "pmix.auids"                    /* pmix_data_array_t* */
#define PMIX_ACCESS_GRPIDS                       "pmix.agids"                    /* pmix_data_array_t* */
#define PMIX_WAIT_FOR_CONNECTION                 "pmix.wait.conn"                /* bool */
#define PMIX_QUALIFIED_VALUE                     "pmix.qual.val"                 /* pmix_data_array_t* */
#define PMIX_REGISTER_NODATA                     "pmix.reg.nodata"               /* bool */

/* Process and node maps */
#define PMIX_NODE_MAP                            "pmix.nmap"                     /* char* */
#define PMIX_NODE_MAP_RAW                        "pmix.nmap.raw"                 /* char* */
#define PMIX_PROC_MAP                            "pmix.pmap"                     /* char* */
#define PMIX_PROC_MAP_RAW                        "pmix.pmap.raw"                 /* char* */
#define PMIX_ANL_MAP                             "pmix.anlmap"                   /* char* */
#define PMIX_APP_MAP_TYPE                        "pmix.apmap.type"               /* char* */
#define PMIX_APP_MAP_REGEX                       "pmix.apmap.regex"              /* char* */
#define PMIX_REQUIRED_KEY                        "pmix.req.key"                  /* char* */
#define PMIX_LOCAL_COLLECTIVE_STATUS             "pmix.loc.col.st"               /* pmix_status_t */
#define PMIX_SORTED_PROC_ARRAY                   "pmix.sorted.parr"              /* bool */

/* Events */
#define PMIX_EVENT_HDLR_NAME                     "pmix.evname"                   /* char* */
#define PMIX_EVENT_HDLR_FIRST                    "pmix.evfirst"                  /* bool */
#define PMIX_EVENT_HDLR_LAST                     "pmix.evlast"                   /* bool */
#define PMIX_EVENT_HDLR_FIRST_IN_CATEGORY        "pmix.evfirstcat"               /* bool */
#define PMIX_EVENT_HDLR_LAST_IN_CATEGORY         "pmix.evlastcat"                /* bool */
#define PMIX_EVENT_HDLR_BEFORE                   "pmix.evbefore"                 /* char* */
#define PMIX_EVENT_HDLR_AFTER                    "pmix.evafter"                  /* char* */
#define PMIX_EVENT_HDLR_PREPEND                  "pmix.evprepend"                /* bool */
#define PMIX_EVENT_HDLR_APPEND                   "pmix.evappend"                 /* bool */
#define PMIX_EVENT_CUSTOM_RANGE                  "pmix.evrange"                  /* pmix_data_array_t* */
#define PMIX_EVENT_AFFECTED_PROC                 "pmix.evproc"                   /* pmix_proc_t* */
#define PMIX_EVENT_AFFECTED_PROCS                "pmix.evaffected"               /* pmix_data_array_t* */
#define PMIX_EVENT_NON_DEFAULT                   "pmix.evnondef"                 /* bool */
#define PMIX_EVENT_RETURN_OBJECT                 "pmix.evobject"                 /* void* */
#define PMIX_EVENT_DO_NOT_CACHE                  "pmix.evnocache"                /* bool */
#define PMIX_EVENT_SILENT_TERMINATION            "pmix.evsilentterm"             /* bool */
#define PMIX_EVENT_PROXY                         "pmix.evproxy"                  /* pmix_proc_t* */
#define PMIX_EVENT_TEXT_MESSAGE                  "pmix.evtext"                   /* char* */
#define PMIX_EVENT_TIMESTAMP                     "pmix.evtstamp"                 /* time_t */
#define PMIX_EVENT_ONESHOT                       "pmix.evone"                    /* bool */
#define PMIX_EVENT_TERMINATE_SESSION             "pmix.evterm.sess"              /* bool */
#define PMIX_EVENT_TERMINATE_JOB                 "pmix.evterm.job"               /* bool */
#define PMIX_EVENT_TERMINATE_NODE                "pmix.evterm.node"              /* bool */
#define PMIX_EVENT_TERMINATE_PROC                "pmix.evterm.proc"              /* bool */
#define PMIX_EVENT_ACTION_TIMEOUT                "pmix.evtimeout"                /* int */

/* Spawn directives */
#define PMIX_PERSONALITY                         "pmix.pers"                     /* char* */
#define PMIX_HOST                                "pmix.host"                     /* char* */
#define PMIX_HOSTFILE                            "pmix.hostfile"                 /* char* */
#define PMIX_ADD_HOST                            "pmix.addhost"                  /* char* */
#define PMIX_ADD_HOSTFILE                        "pmix.addhostfile"              /* char* */
#define PMIX_PREFIX                              "pmix.prefix"                   /* char* */
#define PMIX_WDIR                                "pmix.wdir"                     /* char* */
#define PMIX_WDIR_USER_SPECIFIED                 "pmix.wdir.user"                /* bool */
#define PMIX_DISPLAY_MAP                         "pmix.dispmap"                  /* bool */
#define PMIX_DISPLAY_MAP_DETAILED                "pmix.dispmapdet"               /* bool */
#define PMIX_DISPLAY_ALLOCATION                  "pmix.dispalloc"                /* bool */
#define PMIX_DISPLAY_TOPOLOGY                    "pmix.disptopo"                 /* char* */
#define PMIX_PPR                                 "pmix.ppr"                      /* char* */
#define PMIX_MAPBY                               "pmix.mapby"                    /* char* */
#define PMIX_RANKBY                              "pmix.rankby"                   /* char* */
#define PMIX_BINDTO                              "pmix.bindto"                   /* char* */
#define PMIX_PRELOAD_BIN                         "pmix.preloadbin"               /* bool */
#define PMIX_PRELOAD_FILES                       "pmix.preloadfiles"             /* char* */
#define PMIX_STDIN_TGT                           "pmix.stdin"                    /* pmix_proc_t* */
#define PMIX_DEBUGGER_DAEMONS                    "pmix.debugger"                 /* bool */
#define PMIX_COSPAWN_APP                         "pmix.cospawn"                  /* bool */
#define PMIX_COLOCATE_PROCS                      "pmix.colproc"                  /* pmix_data_array_t* */
#define PMIX_COLOCATE_NPERPROC                   "pmix.colnum.proc"              /* uint16_t */
#define PMIX_COLOCATE_NPERNODE                   "pmix.colnum.node"              /* uint16_t */
#define PMIX_SET_SESSION_CWD                     "pmix.ssncwd"                   /* bool */
#define PMIX_INDEX_ARGV                          "pmix.indxargv"                 /* bool */
#define PMIX_CPUS_PER_PROC                       "pmix.cpuperproc"               /* uint32_t */
#define PMIX_NO_PROCS_ON_HEAD                    "pmix.nolocal"                  /* bool */
#define PMIX_NO_OVERSUBSCRIBE                    "pmix.noover"                   /* bool */
#define PMIX_REPORT_BINDINGS                     "pmix.repbind"                  /* bool */
#define PMIX_CPU_LIST                            "pmix.cpulist"                  /* char* */
#define PMIX_JOB_RECOVERABLE                     "pmix.recover"                  /* bool */
#define PMIX_JOB_CONTINUOUS                      "pmix.continuous"               /* bool */
#define PMIX_MAX_RESTARTS                        "pmix.maxrestarts"              /* uint32_t */
#define PMIX_FWD_STDIN                           "pmix.fwd.stdin"                /* bool */
#define PMIX_FWD_STDOUT                          "pmix.fwd.stdout"               /* bool */
#define PMIX_FWD_STDERR                          "pmix.fwd.stderr"               /* bool */
#define PMIX_FWD_STDDIAG                         "pmix.fwd.stddiag"              /* bool */
#define PMIX_SPAWN_TOOL                          "pmix.spwn.tool"                /* bool */
#define PMIX_CMD_LINE                            "pmix.cmd.line"                 /* char* */
#define PMIX_FORKEXEC_AGENT                      "pmix.fe.agnt"                  /* char* */
#define PMIX_JOB_TIMEOUT                         "pmix.job.time"                 /* int */
#define PMIX_SPAWN_TIMEOUT                       "pmix.sp.time"                  /* int */
#define PMIX_TIMEOUT_STACKTRACES                 "pmix.tim.stack"                /* bool */
#define PMIX_TIMEOUT_REPORT_STATE                "pmix.tim.state"                /* bool */
#define PMIX_APP_ARGV                            "pmix.app.argv"                 /* char* */
#define PMIX_NOTIFY_JOB_EVENTS                   "pmix.note.jev"                 /* bool */
#define PMIX_NOTIFY_PROC_TERMINATION             "pmix.noteproc"                 /* bool */
#define PMIX_NOTIFY_PROC_ABNORMAL_TERMINATION    "pmix.noteabproc"               /* bool */
#define PMIX_ENVARS_HARVESTED                    "pmix.evar.hvstd"               /* bool */
#define PMIX_RUNTIME_OPTIONS                     "pmix.runopt"                   /* char* */
#define PMIX_ABORT_NON_ZERO_TERM                 "pmix.abnz"                     /* bool */
#define PMIX_DO_NOT_LAUNCH                       "pmix.dnl"                      /* bool */
#define PMIX_SHOW_LAUNCH_PROGRESS                "pmix.showprog"                 /* bool */
#define PMIX_AGGREGATE_HELP                      "pmix.agg.help"                 /* bool */
#define PMIX_REPORT_CHILD_SEP                    "pmix.rptchildsep"              /* bool */

/* Queries */
#define PMIX_QUERY_SUPPORTED_KEYS                "pmix.qry.keys"                 /* char* */
#define PMIX_QUERY_NAMESPACES                    "pmix.qry.ns"                   /* char* */
#define PMIX_QUERY_NAMESPACE_INFO                "pmix.qry.nsinfo"               /* pmix_data_array_t* */
#define PMIX_QUERY_JOB_STATUS                    "pmix.qry.jst"                  /* pmix_status_t */
#define PMIX_QUERY_QUEUE_LIST                    "pmix.qry.qlst"                 /* char* */
#define PMIX_QUERY_QUEUE_STATUS                  "pmix.qry.qst"                  /* pmix_data_array_t* */
#define PMIX_QUERY_PROC_TABLE                    "pmix.qry.ptable"               /* pmix_data_array_t* */
#define PMIX_QUERY_LOCAL_PROC_TABLE              "pmix.qry.lptable"              /* pmix_data_array_t* */
#define PMIX_QUERY_AUTHORIZATIONS                "pmix.qry.auths"                /* pmix_data_array_t* */
#define PMIX_QUERY_SPAWN_SUPPORT                 "pmix.qry.spawn"                /* char* */
#define PMIX_QUERY_DEBUG_SUPPORT                 "pmix.qry.debug"                /* char* */
#define PMIX_QUERY_MEMORY_USAGE                  "pmix.qry.mem"                  /* pmix_data_array_t* */
#define PMIX_QUERY_ALLOC_STATUS                  "pmix.query.alloc"              /* char* */
#define PMIX_TIME_REMAINING                      "pmix.time.remaining"           /* uint32_t */
#define PMIX_QUERY_NUM_PSETS                     "pmix.qry.psetnum"              /* size_t */
#define PMIX_QUERY_PSET_NAMES                    "pmix.qry.psets"                /* char* */
#define PMIX_QUERY_PSET_MEMBERSHIP               "pmix.qry.pmems"                /* pmix_data_array_t* */
#define PMIX_QUERY_NUM_GROUPS                    "pmix.qry.pgrpnum"              /* size_t */
#define PMIX_QUERY_GROUP_NAMES                   "pmix.qry.pgrp"                 /* pmix_data_array_t* */
#define PMIX_QUERY_GROUP_MEMBERSHIP              "pmix.qry.pgrpmems"             /* pmix_data_array_t* */
#define PMIX_QUERY_ATTRIBUTE_SUPPORT             "pmix.qry.attrs"                /* pmix_data_array_t* */
#define PMIX_CLIENT_FUNCTIONS                    "pmix.client.fns"               /* char* */
#define PMIX_SERVER_FUNCTIONS                    "pmix.srvr.fns"                 /* char* */
#define PMIX_TOOL_FUNCTIONS                      "pmix.tool.fns"                 /* char* */
#define PMIX_HOST_FUNCTIONS                      "pmix.host.fns"                 /* char* */
#define PMIX_QUERY_AVAIL_SERVERS                 "pmix.qry.asrvrs"               /* pmix_data_array_t* */
#define PMIX_QUERY_QUALIFIERS                    "pmix.qry.quals"                /* pmix_data_array_t* */
#define PMIX_QUERY_RESULTS                       "pmix.qry.res"                  /* pmix_data_array_t* */
#define PMIX_QUERY_REFRESH_CACHE                 "pmix.qry.rfsh"                 /* bool */
#define PMIX_QUERY_LOCAL_ONLY                    "pmix.qry.local"                /* bool */
#define PMIX_QUERY_REPORT_AVG                    "pmix.qry.avg"                  /* bool */
#define PMIX_QUERY_REPORT_MINMAX                 "pmix.qry.minmax"               /* bool */
#define PMIX_CLIENT_ATTRIBUTES                   "pmix.client.attrs"             /* char* */
#define PMIX_SERVER_ATTRIBUTES                   "pmix.srvr.attrs"               /* char* */
#define PMIX_HOST_ATTRIBUTES                     "pmix.host.attrs"               /* char* */
#define PMIX_TOOL_ATTRIBUTES                     "pmix.tool.attrs"               /* char* */
#define PMIX_QUERY_SUPPORTED_QUALIFIERS          "pmix.qry.quals"                /* bool */

/* Levels of information */
#define PMIX_SESSION_INFO                        "pmix.ssn.info"                 /* bool */
#define PMIX_JOB_INFO                            "pmix.job.info"                 /* bool */
#define PMIX_APP_INFO                            "pmix.app.info"                 /* bool */
#define PMIX_NODE_INFO                           "pmix.node.info"                /* bool */
#define PMIX_SESSION_INFO_ARRAY                  "pmix.ssn.arr"                  /* pmix_data_array_t* */
#define PMIX_JOB_INFO_ARRAY                      "pmix.job.arr"                  /* pmix_data_array_t* */
#define PMIX_APP_INFO_ARRAY                      "pmix.app.arr"                  /* pmix_data_array_t* */
#define PMIX_PROC_INFO_ARRAY                     "pmix.pdata"                    /* pmix_data_array_t* */
#define PMIX_NODE_INFO_ARRAY                     "pmix.node.arr"                 /* pmix_data_array_t* */
#define PMIX_SERVER_INFO_ARRAY                   "pmix.srv.arr"                  /* pmix_data_array_t* */

/* Logging */
#define PMIX_LOG_SOURCE                          "pmix.log.source"               /* pmix_proc_t* */
#define PMIX_LOG_STDERR                          "pmix.log.stderr"               /* char* */
#define PMIX_LOG_STDOUT                          "pmix.log.stdout"               /* char* */
#define PMIX_LOG_SYSLOG                          "pmix.log.syslog"               /* char* */
#define PMIX_LOG_LOCAL_SYSLOG                    "pmix.log.lsys"                 /* char* */
#define PMIX_LOG_GLOBAL_SYSLOG                   "pmix.log.gsys"                 /* char* */
#define PMIX_LOG_SYSLOG_PRI                      "pmix.log.syspri"               /* int */
#define PMIX_LOG_TIMESTAMP                       "pmix.log.tstmp"                /* time_t */
#define PMIX_LOG_GENERATE_TIMESTAMP              "pmix.log.gtstmp"               /* bool */
#define PMIX_LOG_TAG_OUTPUT                      "pmix.log.tag"                  /* bool */
#define PMIX_LOG_TIMESTAMP_OUTPUT                "pmix.log.tsout"                /* bool */
#define PMIX_LOG_XML_OUTPUT                      "pmix.log.xml"                  /* bool */
#define PMIX_LOG_ONCE                            "pmix.log.once"                 /* bool */
#define PMIX_LOG_MSG                             "pmix.log.msg"                  /* pmix_byte_object_t */
#define PMIX_LOG_KEY                             "pmix.log.key"                  /* char* */
#define PMIX_LOG_VAL                             "pmix.log.val"                  /* char* */
#define PMIX_LOG_AGG                             "pmix.log.agg"                  /* bool */
#define PMIX_LOG_EMAIL                           "pmix.log.email"                /* pmix_data_array_t* */
#define PMIX_LOG_EMAIL_ADDR                      "pmix.log.emaddr"               /* char* */
#define PMIX_LOG_EMAIL_SENDER_ADDR               "pmix.log.emfaddr"              /* char* */
#define PMIX_LOG_EMAIL_SUBJECT                   "pmix.log.emsub"                /* char* */
#define PMIX_LOG_EMAIL_MSG                       "pmix.log.emmsg"                /* char* */
#define PMIX_LOG_EMAIL_SERVER                    "pmix.log.esrvr"                /* char* */
#define PMIX_LOG_EMAIL_SRVR_PORT                 "pmix.log.esrvrprt"             /* int32_t */
#define PMIX_LOG_GLOBAL_DATASTORE                "pmix.log.gstore"               /* bool */
#define PMIX_LOG_JOB_RECORD                      "pmix.log.jrec"                 /* bool */
#define PMIX_LOG_PROC_TERMINATION                "pmix.logproc"                  /* bool */
#define PMIX_LOG_PROC_ABNORMAL_TERMINATION       "pmix.logabproc"                /* bool */
#define PMIX_LOG_JOB_EVENTS                      "pmix.log.jev"                  /* bool */
#define PMIX_LOG_COMPLETION                      "pmix.logcomp"                  /* bool */

/* Debuggers */
#define PMIX_DEBUG_STOP_ON_EXEC                  "pmix.dbg.exec"                 /* varies */
#define PMIX_DEBUG_STOP_IN_INIT                  "pmix.dbg.init"                 /* varies */
#define PMIX_DEBUG_STOP_IN_APP                   "pmix.dbg.notify"               /* varies */
#define PMIX_BREAKPOINT                          "pmix.brkpnt"                   /* char* */
#define PMIX_DEBUG_TARGET                        "pmix.dbg.tgt"                  /* pmix_proc_t* */
#define PMIX_DEBUG_DAEMONS_PER_PROC              "pmix.dbg.dpproc"               /* uint16_t */
#define PMIX_DEBUG_DAEMONS_PER_NODE              "pmix.dbg.dpnd"                 /* uint16_t */

/* Resource manager */
#define PMIX_RM_NAME                             "pmix.rm.name"                  /* char* */
#define PMIX_RM_VERSION                          "pmix.rm.version"               /* char* */

/* Environment changes */
#define PMIX_SET_ENVAR                           "pmix.envar.set"                /* pmix_envar_t* */
#define PMIX_ADD_ENVAR                           "pmix.envar.add"                /* pmix_envar_t* */
#define PMIX_UNSET_ENVAR                         "pmix.envar.unset"              /* char* */
#define PMIX_PREPEND_ENVAR                       "pmix.envar.prepnd"             /* pmix_envar_t* */
#define PMIX_APPEND_ENVAR                        "pmix.envar.appnd"              /* pmix_envar_t* */
#define PMIX_FIRST_ENVAR                         "pmix.envar.first"              /* pmix_envar_t* */

/* Allocations */
#define PMIX_ALLOC_REQ_ID                        "pmix.alloc.reqid"              /* char* */
#define PMIX_ALLOC_ID                            "pmix.alloc.id"                 /* char* */
#define PMIX_ALLOC_NUM_NODES                     "pmix.alloc.nnodes"             /* uint64_t */
#define PMIX_ALLOC_NODE_LIST                     "pmix.alloc.nlist"              /* char* */
#define PMIX_ALLOC_NUM_CPUS                      "pmix.alloc.ncpus"              /* uint64_t */
#define PMIX_ALLOC_NUM_CPU_LIST                  "pmix.alloc.ncpulist"           /* char* */
#define PMIX_ALLOC_CPU_LIST                      "pmix.alloc.cpulist"            /* char* */
#define PMIX_ALLOC_MEM_SIZE                      "pmix.alloc.msize"              /* float */
#define PMIX_ALLOC_FABRIC                        "pmix.alloc.net"                /* pmix_data_array_t* */
#define PMIX_ALLOC_FABRIC_ID                     "pmix.alloc.netid"              /* char* */
#define PMIX_ALLOC_BANDWIDTH                     "pmix.alloc.bw"                 /* float */
#define PMIX_ALLOC_FABRIC_QOS                    "pmix.alloc.netqos"             /* char* */
#define PMIX_ALLOC_TIME                          "pmix.alloc.time"               /* uint32_t */
#define PMIX_ALLOC_FABRIC_TYPE                   "pmix.alloc.nettype"            /* char* */
#define PMIX_ALLOC_FABRIC_PLANE                  "pmix.alloc.netplane"           /* char* */
#define PMIX_ALLOC_FABRIC_ENDPTS                 "pmix.alloc.endpts"             /* size_t */
#define PMIX_ALLOC_FABRIC_ENDPTS_NODE            "pmix.alloc.endpts.nd"          /* size_t */
#define PMIX_ALLOC_FABRIC_SEC_KEY                "pmix.alloc.nsec"               /* pmix_byte_object_t */
#define PMIX_ALLOC_QUEUE                         "pmix.alloc.queue"              /* char* */

/* Job control */
#define PMIX_JOB_CTRL_ID                         "pmix.jctrl.id"                 /* char* */
#define PMIX_JOB_CTRL_PAUSE                      "pmix.jctrl.pause"              /* bool */
#define PMIX_JOB_CTRL_RESUME                     "pmix.jctrl.resume"             /* bool */
#define PMIX_JOB_CTRL_CANCEL                     "pmix.jctrl.cancel"             /* char* */
#define PMIX_JOB_CTRL_KILL                       "pmix.jctrl.kill"               /* bool */
#define PMIX_JOB_CTRL_RESTART                    "pmix.jctrl.restart"            /* char* */
#define PMIX_JOB_CTRL_CHECKPOINT                 "pmix.jctrl.ckpt"               /* char* */
#define PMIX_JOB_CTRL_CHECKPOINT_EVENT           "pmix.jctrl.ckptev"             /* bool */
#define PMIX_JOB_CTRL_CHECKPOINT_SIGNAL          "pmix.jctrl.ckptsig"            /* int */
#define PMIX_JOB_CTRL_CHECKPOINT_TIMEOUT         "pmix.jctrl.ckptsig"            /* int */
#define PMIX_JOB_CTRL_CHECKPOINT_METHOD          "pmix.jctrl.ckmethod"           /* pmix_data_array_t* */
#define PMIX_JOB_CTRL_SIGNAL                     "pmix.jctrl.sig"                /* int */
#define PMIX_JOB_CTRL_PROVISION                  "pmix.jctrl.pvn"                /* char* */
#define PMIX_JOB_CTRL_PROVISION_IMAGE            "pmix.jctrl.pvnimg"             /* char* */
#define PMIX_JOB_CTRL_PREEMPTIBLE                "pmix.jctrl.preempt"            /* bool */
#define PMIX_JOB_CTRL_TERMINATE                  "pmix.jctrl.term"               /* bool */

/* Cleanup on termination */
#define PMIX_REGISTER_CLEANUP                    "pmix.reg.cleanup"              /* char* */
#define PMIX_REGISTER_CLEANUP_DIR                "pmix.reg.cleanupdir"           /* char* */
#define PMIX_CLEANUP_RECURSIVE                   "pmix.clnup.recurse"            /* bool */
#define PMIX_CLEANUP_EMPTY                       "pmix.clnup.empty"              /* bool */
#define PMIX_CLEANUP_IGNORE                      "pmix.clnup.ignore"             /* char* */
#define PMIX_CLEANUP_LEAVE_TOPDIR                "pmix.clnup.lvtop"              /* bool */

/* Monitoring */
#define PMIX_MONITOR_ID                          "pmix.monitor.id"               /* char* */
#define PMIX_MONITOR_CANCEL                      "pmix.monitor.cancel"           /* char* */
#define PMIX_MONITOR_APP_CONTROL                 "pmix.monitor.appctrl"          /* bool */
#define PMIX_MONITOR_HEARTBEAT                   "pmix.monitor.mbeat"            /* bool */
#define PMIX_SEND_HEARTBEAT                      "pmix.monitor.beat"             /* bool */
#define PMIX_MONITOR_HEARTBEAT_TIME              "pmix.monitor.btime"            /* uint32_t */
#define PMIX_MONITOR_HEARTBEAT_DROPS             "pmix.monitor.bdrop"            /* uint32_t */
#define PMIX_MONITOR_FILE                        "pmix.monitor.fmon"             /* char* */
#define PMIX_MONITOR_FILE_SIZE                   "pmix.monitor.fsize"            /* bool */
#define PMIX_MONITOR_FILE_ACCESS                 "pmix.monitor.faccess"          /* char* */
#define PMIX_MONITOR_FILE_MODIFY                 "pmix.monitor.fmod"             /* char* */
#define PMIX_MONITOR_FILE_CHECK_TIME             "pmix.monitor.ftime"            /* uint32_t */
#define PMIX_MONITOR_FILE_DROPS                  "pmix.monitor.fdrop"            /* uint32_t */

/* Security */
#define PMIX_CRED_TYPE                           "pmix.sec.ctype"                /* char* */
#define PMIX_CRYPTO_KEY                          "pmix.sec.key"                  /* pmix_byte_object_t */

/* I/O forwarding */
#define PMIX_IOF_CACHE_SIZE                      "pmix.iof.csize"                /* uint32_t */
#define PMIX_IOF_DROP_OLDEST                     "pmix.iof.old"                  /* bool */
#define PMIX_IOF_DROP_NEWEST                     "pmix.iof.new"                  /* bool */
#define PMIX_IOF_BUFFERING_SIZE                  "pmix.iof.bsize"                /* uint32_t */
#define PMIX_IOF_BUFFERING_TIME                  "pmix.iof.btime"                /* uint32_t */
#define PMIX_IOF_COMPLETE                        "pmix.iof.cmp"                  /* bool */
#define PMIX_IOF_PUSH_STDIN                      "pmix.iof.stdin"                /* bool */
#define PMIX_IOF_TAG_OUTPUT                      "pmix.iof.tag"                  /* bool */
#define PMIX_IOF_TAG_DETAILED_OUTPUT             "pmix.iof.tagdet"               /* bool */
#define PMIX_IOF_TAG_FULLNAME_OUTPUT             "pmix.iof.tagfull"              /* bool */
#define PMIX_IOF_RANK_OUTPUT                     "pmix.iof.rank"                 /* bool */
#define PMIX_IOF_TIMESTAMP_OUTPUT                "pmix.iof.ts"                   /* bool */
#define PMIX_IOF_MERGE_STDERR_STDOUT             "pmix.iof.mrg"                  /* bool */
#define PMIX_IOF_XML_OUTPUT                      "pmix.iof.xml"                  /* bool */
#define PMIX_IOF_OUTPUT_TO_FILE                  "pmix.iof.file"                 /* char* */
#define PMIX_IOF_FILE_PATTERN                    "pmix.iof.fpt"                  /* bool */
#define PMIX_IOF_OUTPUT_TO_DIRECTORY             "pmix.iof.dir"                  /* char* */
#define PMIX_IOF_FILE_ONLY                       "pmix.iof.fonly"                /* bool */
#define PMIX_IOF_COPY                            "pmix.iof.cpy"                  /* bool */
#define PMIX_IOF_REDIRECT                        "pmix.iof.redir"                /* bool */
#define PMIX_IOF_LOCAL_OUTPUT                    "pmix.iof.local"                /* bool */
#define PMIX_IOF_OUTPUT_RAW                      "pmix.iof.raw"                  /* bool */

/* Application setup */
#define PMIX_SETUP_APP_ENVARS                    "pmix.setup.env"                /* bool */
#define PMIX_SETUP_APP_NONENVARS                 "pmix.setup.nenv"               /* bool */
#define PMIX_SETUP_APP_ALL                       "pmix.setup.all"                /* bool */

/* Groups */
#define PMIX_GROUP_ID                            "pmix.grp.id"                   /* char* */
#define PMIX_GROUP_LEADER                        "pmix.grp.ldr"                  /* bool */
#define PMIX_GROUP_OPTIONAL                      "pmix.grp.opt"                  /* bool */
#define PMIX_GROUP_NOTIFY_TERMINATION            "pmix.grp.notterm"              /* bool */
#define PMIX_GROUP_FT_COLLECTIVE                 "pmix.grp.ftcoll"               /* bool */
#define PMIX_GROUP_MEMBERSHIP                    "pmix.grp.mbrs"                 /* pmix_data_array_t* */
#define PMIX_GROUP_ASSIGN_CONTEXT_ID             "pmix.grp.actxid"               /* bool */
#define PMIX_GROUP_CONTEXT_ID                    "pmix.grp.ctxid"                /* size_t */
#define PMIX_GROUP_LOCAL_ONLY                    "pmix.grp.lcl"                  /* bool */
#define PMIX_GROUP_ENDPT_DATA                    "pmix.grp.endpt"                /* pmix_byte_object_t */
#define PMIX_GROUP_NAMES                         "pmix.pgrp.nm"                  /* pmix_data_array_t* */
#define PMIX_GROUP_INFO                          "pmix.grp.info"                 /* pmix_data_array_t* */
#define PMIX_GROUP_LOCAL_CID                     "pmix.grp.lclid"                /* size_t */
#define PMIX_GROUP_ADD_MEMBERS                   "pmix.grp.add"                  /* pmix_data_array_t* */

/* Storage */
#define PMIX_QUERY_STORAGE_LIST                  "pmix.strg.list"                /* char* */
#define PMIX_STORAGE_CAPACITY_LIMIT              "pmix.strg.cap"                 /* uint64_t */
#define PMIX_STORAGE_OBJECT_LIMIT                "pmix.strg.obj"                 /* uint64_t */
#define PMIX_STORAGE_ID                          "pmix.strg.id"                  /* char* */
#define PMIX_STORAGE_PATH                        "pmix.strg.path"                /* char* */
#define PMIX_STORAGE_TYPE                        "pmix.strg.type"                /* char* */
#define PMIX_STORAGE_ACCESSIBILITY               "pmix.strg.access"              /* pmix_storage_accessibility_t */
#define PMIX_STORAGE_ACCESS_TYPE                 "pmix.strg.atype"               /* pmix_storage_access_type_t */
#define PMIX_STORAGE_BW_CUR                      "pmix.strg.bwcur"               /* double */
#define PMIX_STORAGE_BW_MAX                      "pmix.strg.bwmax"               /* double */
#define PMIX_STORAGE_CAPACITY_USED               "pmix.strg.capuse"              /* double */
#define PMIX_STORAGE_IOPS_CUR                    "pmix.strg.iopscur"             /* double */
#define PMIX_STORAGE_IOPS_MAX                    "pmix.strg.iopsmax"             /* double */
#define PMIX_STORAGE_MEDIUM                      "pmix.strg.medium"              /* pmix_storage_medium_t */
#define PMIX_STORAGE_MINIMAL_XFER_SIZE           "pmix.strg.minxfer"             /* double */
#define PMIX_STORAGE_OBJECTS_USED                "pmix.strg.objuse"              /* uint64_t */
#define PMIX_STORAGE_PERSISTENCE                 "pmix.strg.persist"             /* pmix_storage_persistence_t */
#define PMIX_STORAGE_SUGGESTED_XFER_SIZE         "pmix.strg.sxfer"               /* double */
#define PMIX_STORAGE_VERSION                     "pmix.strg.ver"                 /* char* */

/* Fabrics */
#define PMIX_FABRIC_COST_MATRIX                  "pmix.fab.cm"                   /* pointer */
#define PMIX_FABRIC_GROUPS                       "pmix.fab.grps"                 /* char* */
#define PMIX_FABRIC_VENDOR                       "pmix.fab.vndr"                 /* char* */
#define PMIX_FABRIC_IDENTIFIER                   "pmix.fab.id"                   /* char* */
#define PMIX_FABRIC_INDEX                        "pmix.fab.idx"                  /* size_t */
#define PMIX_FABRIC_COORDINATES                  "pmix.fab.coord"                /* pmix_data_array_t* */
#define PMIX_FABRIC_DEVICE_VENDORID              "pmix.fabdev.vendid"            /* char* */
#define PMIX_FABRIC_NUM_DEVICES                  "pmix.fab.nverts"               /* size_t */
#define PMIX_FABRIC_DIMS                         "pmix.fab.dims"                 /* uint32_t */
#define PMIX_FABRIC_PLANE                        "pmix.fab.plane"                /* char* */
#define PMIX_FABRIC_SWITCH                       "pmix.fab.switch"               /* char* */
#define PMIX_FABRIC_ENDPT                        "pmix.fab.endpt"                /* pmix_data_array_t* */
#define PMIX_FABRIC_SHAPE                        "pmix.fab.shape"                /* pmix_data_array_t* */
#define PMIX_FABRIC_SHAPE_STRING                 "pmix.fab.shapestr"             /* char* */
#define PMIX_SWITCH_PEERS                        "pmix.speers"                   /* char* */

/* Fabric devices */
#define PMIX_FABRIC_DEVICE                       "pmix.fabdev"                   /* pmix_data_array_t* */
#define PMIX_FABRIC_DEVICES                      "pmix.fab.devs"                 /* pmix_data_array_t* */
#define PMIX_FABRIC_DEVICE_NAME                  "pmix.fabdev.nm"                /* char* */
#define PMIX_FABRIC_DEVICE_INDEX                 "pmix.fabdev.idx"               /* uint32_t */
#define PMIX_FABRIC_DEVICE_VENDOR                "pmix.fabdev.vndr"              /* char* */
#define PMIX_FABRIC_DEVICE_BUS_TYPE              "pmix.fabdev.btyp"              /* char* */
#define PMIX_FABRIC_DEVICE_DRIVER                "pmix.fabdev.driver"            /* char* */
#define PMIX_FABRIC_DEVICE_FIRMWARE              "pmix.fabdev.fmwr"              /* char* */
#define PMIX_FABRIC_DEVICE_ADDRESS               "pmix.fabdev.addr"              /* char* */
#define PMIX_FABRIC_DEVICE_COORDINATES           "pmix.fab.coord"                /* pmix_geometry_t */
#define PMIX_FABRIC_DEVICE_MTU                   "pmix.fabdev.mtu"               /* size_t */
#define PMIX_FABRIC_DEVICE_SPEED                 "pmix.fabdev.speed"             /* size_t */
#define PMIX_FABRIC_DEVICE_STATE                 "pmix.fabdev.state"             /* pmix_link_state_t */
#define PMIX_FABRIC_DEVICE_TYPE                  "pmix.fabdev.type"              /* char* */
#define PMIX_FABRIC_DEVICE_PCI_DEVID             "pmix.fabdev.pcidevid"          /* char* */

/* Device distances */
#define PMIX_DEVICE_DISTANCES                    "pmix.dev.dist"                 /* pmix_data_array_t* */
#define PMIX_DEVICE_TYPE                         "pmix.dev.type"                 /* pmix_device_type_t */
#define PMIX_DEVICE_ID                           "pmix.dev.id"                   /* char* */

/* Describing attributes */
#define PMIX_MAX_VALUE                           "pmix.descr.maxval"             /* varies */
#define PMIX_MIN_VALUE                           "pmix.descr.minval"             /* varies */
#define PMIX_ENUM_VALUE                          "pmix.descr.enum"               /* char* */

/* ABI versions */
#define PMIX_QUERY_STABLE_ABI_VERSION            "pmix.qry.stabiver"             /* char* */
#define PMIX_QUERY_PROVISIONAL_ABI_VERSION       "pmix.qry.prabiver"             /* char* */
/* @generated-end attributes */

/* ======================================================================== */
/* 5. Constants newer than the 4.2 standard                                 */
/*    Later standard versions define these; we accept them already.         */
/* ======================================================================== */

/* @generated-begin additions-numbers */
/* Status and event codes */
#define PMIX_ERR_NOT_A_MEMBER                    (-66)
#define PMIX_MONITOR_RESUSAGE_UPDATE             (-114)
#define PMIX_ERR_IOF_XOFF                        (-405)
#define PMIX_ERR_DVM_MOD                         (-196)
#define PMIX_ALLOC_TIMEOUT_WARNING               (-194)
#define PMIX_DVM_IS_READY                        (-195)
#define PMIX_ERR_LOST_PRECISION                  (-202)
#define PMIX_ERR_CHANGE_SIGN                     (-203)

/* Data types */
#define PMIX_DEVICE                              70
#define PMIX_RESBLOCK_DIRECTIVE                  71
#define PMIX_RESOURCE_UNIT                       72
#define PMIX_NODE_PID                            73
#define PMIX_REGEX2                              74
#define PMIX_ALLOC_INHERIT                       75

/* Scopes for deleting data */
#define PMIX_DEL_LOCAL                           5
#define PMIX_DEL_REMOTE                          6
#define PMIX_DEL_GLOBAL                          7
#define PMIX_DEL_INTERNAL                        8

/* Allocation requests */
#define PMIX_ALLOC_REQ_CANCEL                    5

/* Inheritance of an allocation */
#define PMIX_ALLOC_INHERIT_NONE                  1
#define PMIX_ALLOC_INHERIT_CHILD                 2
#define PMIX_ALLOC_INHERIT_DEFAULT               3
#define PMIX_ALLOC_INHERIT_CHILD_DEFAULT         4

/* Resource block directives */
#define PMIX_RESOURCE_BLOCK_DEFINE               1
#define PMIX_RESOURCE_BLOCK_EXTEND               2
#define PMIX_RESOURCE_BLOCK_REMOVE               3
#define PMIX_RESOURCE_BLOCK_DELETE               4
#define PMIX_RESOURCE_BLOCK_EXTERNAL             128
/* @generated-end additions-numbers */

/* @generated-begin additions-attributes */
/* Progress thread and connections */
#define PMIX_PROGRESS_THREAD_FLUSH               "pmix.evflush"                  /* bool */
#define PMIX_PROGRESS_THREAD_NAME                "pmix.pthrdnm"                  /* char* */
#define PMIX_EXTERNAL_AUX_EVENT_BASE             "pmix.evaux"                    /* void* */
#define PMIX_SERVER_ALLOW_FOREIGN_TOOLS          "pmix.srvr.ftools"              /* bool */
#define PMIX_ALLOW_CLIENT_CLONES                 "pmix.allow.clones"             /* bool */
#define PMIX_SERVER_SYS_CONTROLLER               "pmix.srv.ctrlr"                /* bool */
#define PMIX_CONNECT_TO_SCHEDULER                "pmix.cnct.sched"               /* bool */
#define PMIX_CONNECT_TO_SYS_CONTROLLER           "pmix.cnct.ctrlr"               /* bool */
#define PMIX_CONNECTION_ORDER                    "pmix.cnct.ord"                 /* char* */

/* Who is asking */
#define PMIX_REALUID                             "pmix.ruid"                     /* uint32_t */
#define PMIX_REALGID                             "pmix.rgid"                     /* uint32_t */
#define PMIX_REQUESTOR                           "pmix.requestor"                /* pmix_proc_t* */

/* Spawn trees, topology and events */
#define PMIX_SPAWN_TREE_ROOT                     "pmix.spwn.root"                /* char* */
#define PMIX_SPAWN_TREE_ACTIVE                   "pmix.spwn.actv"                /* uint32_t */
#define PMIX_TOPOLOGY_INDEX                      "pmix.topo.index"               /* int */
#define PMIX_LOCAL_PARTICIPANTS                  "pmix.lcl.part"                 /* pmix_data_array_t* */
#define PMIX_EVENT_STAYS_LOCAL                   "pmix.evlocal"                  /* bool */

/* Spawn directives */
#define PMIX_DISPLAY_PROCESSORS                  "pmix.dispcpus"                 /* char* */
#define PMIX_DISPLAY_PARSEABLE_OUTPUT            "pmix.dispparse"                /* bool */
#define PMIX_REPORT_PHYSICAL_CPUS                "pmix.repphys.cpus"             /* bool */
#define PMIX_SPAWN_CHILD_SEP                     "pmix.spchildsep"               /* bool */
#define PMIX_FWD_ENVIRONMENT                     "pmix.fwdenv"                   /* bool */
#define PMIX_SPAWN_PTY                           "pmix.spawn.pty"                /* bool */
#define PMIX_PTY_TERMIO                          "pmix.pty.termio"               /* pmix_byte_object_t */
#define PMIX_PTY_WSIZE                           "pmix.pty.wsize"                /* pmix_byte_object_t */
#define PMIX_SPAWN_TARGET                        "pmix.spwn.tgt"                 /* varies */

/* Queries */
#define PMIX_QUERY_ALLOCATION                    "pmix.query.allc"               /* pmix_data_array_t* */
#define PMIX_QUERY_ALLOC_IDS                     "pmix.query.alloc.ids"          /* pmix_data_array_t* */
#define PMIX_QUERY_ALLOC_PROPERTIES              "pmix.query.alloc.prop"         /* pmix_data_array_t* */
#define PMIX_QUERY_MIN_ALLOC_UNIT                "pmix.qry.minau"                /* pmix_data_array_t* */
#define PMIX_QUERY_RES_BLOCKS                    "pmix.qry.resblks"              /* pmix_data_array_t* */
#define PMIX_QUERY_RES_BLOCK_DEF                 "pmix.qry.resdef"               /* pmix_data_array_t* */
#define PMIX_QUERY_DEVICES                       "pmix.qry.dev"                  /* pmix_data_array_t* */
#define PMIX_QUERY_AVAILABLE_SLOTS               "pmix.qry.aslots"               /* uint32_t */
#define PMIX_QUERY_RESOLVE_PEERS                 "pmix.qry.peers"                /* pmix_data_array_t* */
#define PMIX_QUERY_RESOLVE_NODE                  "pmix.qry.node"                 /* char* */
#define PMIX_QUERY_PROC_RESOURCE_USAGE           "pmix.qry.pres"                 /* pmix_proc_t* */
#define PMIX_QUERY_NODE_RESOURCE_USAGE           "pmix.qry.nres"                 /* char* */

/* Allocations */
#define PMIX_RESOURCE_BLOCK_NAME                 "pmix.resblkname"               /* char* */
#define PMIX_ALLOC_PROPERTY                      "pmix.alloc.property"           /* char* */
#define PMIX_ALLOC_RELEASABLE                    "pmix.alloc.releasable"         /* bool */
#define PMIX_ALLOC_EXCLUDE                       "pmix.alloc.exclude"            /* char* */
#define PMIX_ALLOC_WARN_TIMEOUT                  "pmix.alloc.wtmo"               /* uint32_t */
#define PMIX_ALLOC_PREEMPTIBLE                   "pmix.alloc.preempt"            /* bool */
#define PMIX_ALLOC_LEND                          "pmix.alloc.lend"               /* char* */
#define PMIX_ALLOC_IMAGE                         "pmix.alloc.image"              /* char* */
#define PMIX_ALLOC_WAIT_ALL_NODES                "pmix.alloc.waitall"            /* bool */
#define PMIX_ALLOC_SHARE                         "pmix.alloc.share"              /* bool */
#define PMIX_ALLOC_NOSHELL                       "pmix.alloc.noshell"            /* bool */
#define PMIX_ALLOC_DEPENDENCY                    "pmix.alloc.depend"             /* char* */
#define PMIX_ALLOC_BEGIN                         "pmix.alloc.begin"              /* char* */
#define PMIX_ALLOC_NOT_WAITING                   "pmix.alloc.notwait"            /* bool */
#define PMIX_ALLOC_RES_BLOCK                     "pmix.alloc.blk"                /* char* */
#define PMIX_ALLOC_NUM_BLOCKS                    "pmix.alloc.nblks"              /* uint64_t */
#define PMIX_ALLOC_MAU                           "pmix.alloc.mau"                /* pmix_data_array_t* */
#define PMIX_ALLOC_CHILD_SEP                     "pmix.alloc.sep"                /* bool */
#define PMIX_MEM_ALLOC_KIND                      "pmix.alloc.mkind"              /* char* */
#define PMIX_GPU_SUPPORT                         "pmix.gpu.support"              /* bool */
#define PMIX_ALLOC_STATUS                        "pmix.alloc.status"             /* pmix_status_t */
#define PMIX_ALLOC_TARGET                        "pmix.alloc.tgt"                /* char* */
#define PMIX_ALLOC_INHERITANCE                   "pmix.alloc.inhrt"              /* pmix_alloc_inheritance_t */

/* Job control */
#define PMIX_JOB_CTRL_DEFINE_PSET                "pmix.jctrl.defpset"            /* char* */
#define PMIX_JOB_CTRL_SEP                        "pmix.jctrl.sep"                /* bool */

/* Session control */
#define PMIX_SESSION_CTRL_ID                     "pmix.ssnctrl.id"               /* char* */
#define PMIX_SESSION_INSTANTIATE                 "pmix.ssn.inst"                 /* bool */
#define PMIX_SESSION_RESOURCES                   "pmix.ssn.res"                  /* pmix_data_array_t* */
#define PMIX_SESSION_JOB                         "pmix.ssn.job"                  /* pmix_data_array_t* */
#define PMIX_SESSION_APP                         "pmix.ssn.app"                  /* pmix_data_array_t* */
#define PMIX_SESSION_PROVISION_NODES             "pmix.ssn.pvnnds"               /* char* */
#define PMIX_SESSION_PROVISION_IMAGE             "pmix.ssn.pvnimg"               /* char* */
#define PMIX_SESSION_PAUSE                       "pmix.ssn.pause"                /* bool */
#define PMIX_SESSION_RESUME                      "pmix.ssn.resume"               /* bool */
#define PMIX_SESSION_TERMINATE                   "pmix.ssn.terminate"            /* bool */
#define PMIX_SESSION_PREEMPT                     "pmix.ssn.preempt"              /* bool */
#define PMIX_SESSION_RESTORE                     "pmix.ssn.restore"              /* bool */
#define PMIX_SESSION_SIGNAL                      "pmix.ssn.sig"                  /* int */
#define PMIX_SESSION_SEP                         "pmix.ssn.sep"                  /* bool */
#define PMIX_SESSION_EXTEND                      "pmix.ssn.xtend"                /* bool */
#define PMIX_SESSION_COMPLETE                    "pmix.ssn.complete"             /* bool */

/* Resource monitoring */
#define PMIX_MONITOR_PROXY                       "pmix.monitor.proxy"            /* pmix_proc_t* */
#define PMIX_MONITOR_RESOURCE_RATE               "pmix.monitor.resrate"          /* uint32_t */
#define PMIX_MONITOR_TARGET_PROCS                "pmix.monitor.tgtproc"          /* pmix_data_array_t* */
#define PMIX_MONITOR_TARGET_PIDS                 "pmix.monitor.tgtpid"           /* pmix_data_array_t* */
#define PMIX_MONITOR_TARGET_NODES                "pmix.monitor.tgtnode"          /* pmix_data_array_t* */
#define PMIX_MONITOR_TARGET_NODEIDS              "pmix.monitor.tgtndids"         /* pmix_data_array_t* */
#define PMIX_MONITOR_TARGET_DISKS                "pmix.monitor.tgtdks"           /* pmix_data_array_t* */
#define PMIX_MONITOR_TARGET_NETS                 "pmix.monitor.tgtnets"          /* pmix_data_array_t* */
#define PMIX_MONITOR_PROC_RESOURCE_USAGE         "pmix.monitor.presuse"          /* pmix_data_array_t* */
#define PMIX_MONITOR_NODE_RESOURCE_USAGE         "pmix.monitor.ndresuse"         /* pmix_data_array_t* */
#define PMIX_MONITOR_DISK_RESOURCE_USAGE         "pmix.monitor.dkresuse"         /* pmix_data_array_t* */
#define PMIX_MONITOR_NET_RESOURCE_USAGE          "pmix.monitor.netresuse"        /* pmix_data_array_t* */
#define PMIX_MONITOR_LOCAL_ONLY                  "pmix.monitor.local"            /* bool */

/* Process resource usage */
#define PMIX_PROC_RESOURCE_USAGE                 "pmix.proc.res"                 /* pmix_data_array_t* */
#define PMIX_PROC_OS_STATE                       "pmix.proc.osstate"             /* char* */
#define PMIX_PROC_TIME                           "pmix.proc.time"                /* struct timeval */
#define PMIX_PROC_PERCENT_CPU                    "pmix.proc.pcpu"                /* float */
#define PMIX_PROC_PRIORITY                       "pmix.proc.pri"                 /* int32_t */
#define PMIX_PROC_NUM_THREADS                    "pmix.proc.nthr"                /* uint16_t */
#define PMIX_PROC_PSS                            "pmix.proc.pss"                 /* float */
#define PMIX_PROC_VSIZE                          "pmix.proc.vsize"               /* float */
#define PMIX_PROC_RSS                            "pmix.proc.rss"                 /* float */
#define PMIX_PROC_PEAK_VSIZE                     "pmix.proc.pkvsize"             /* float */
#define PMIX_PROC_CPU                            "pmix.proc.cpu"                 /* uint16_t */
#define PMIX_PROC_SAMPLE_TIME                    "pmix.proc.samptime"            /* time_t */

/* Disk usage */
#define PMIX_DISK_RESOURCE_USAGE                 "pmix.disk.res"                 /* pmix_data_array_t* */
#define PMIX_DISK_ID                             "pmix.disk.id"                  /* char* */
#define PMIX_DISK_READ_COMPLETED                 "pmix.disk.rdscomp"             /* uint64_t */
#define PMIX_DISK_READ_MERGED                    "pmix.disk.rdsmrgd"             /* uint64_t */
#define PMIX_DISK_READ_SECTORS                   "pmix.disk.rdsct"               /* uint64_t */
#define PMIX_DISK_READ_MILLISEC                  "pmix.disk.rdms"                /* uint64_t */
#define PMIX_DISK_WRITE_COMPLETED                "pmix.disk.wtscomp"             /* uint64_t */
#define PMIX_DISK_WRITE_MERGED                   "pmix.disk.wtsmrgd"             /* uint64_t */
#define PMIX_DISK_WRITE_SECTORS                  "pmix.disk.wtsct"               /* uint64_t */
#define PMIX_DISK_WRITE_MILLISEC                 "pmix.disk.wtms"                /* uint64_t */
#define PMIX_DISK_IO_IN_PROGRESS                 "pmix.disk.ios"                 /* uint64_t */
#define PMIX_DISK_IO_MILLISEC                    "pmix.disk.ioms"                /* uint64_t */
#define PMIX_DISK_IO_WEIGHTED                    "pmix.disk.iowght"              /* uint64_t */
#define PMIX_DISK_SAMPLE_TIME                    "pmix.disk.samptime"            /* time_t */

/* Network usage */
#define PMIX_NETWORK_RESOURCE_USAGE              "pmix.net.res"                  /* pmix_data_array_t* */
#define PMIX_NETWORK_ID                          "pmix.net.id"                   /* char* */
#define PMIX_NET_RECVD_BYTES                     "pmix.net.rcb"                  /* uint64_t */
#define PMIX_NET_RECVD_PCKTS                     "pmix.net.rcp"                  /* uint64_t */
#define PMIX_NET_RECVD_ERRS                      "pmix.net.rcerr"                /* uint64_t */
#define PMIX_NET_SENT_BYTES                      "pmix.net.sntb"                 /* uint64_t */
#define PMIX_NET_SENT_PCKTS                      "pmix.net.sntp"                 /* uint64_t */
#define PMIX_NET_SENT_ERRS                       "pmix.net.snterr"               /* uint64_t */
#define PMIX_NET_SAMPLE_TIME                     "pmix.net.samptime"             /* time_t */

/* Node usage */
#define PMIX_NODE_RESOURCE_USAGE                 "pmix.node.res"                 /* pmix_data_array_t* */
#define PMIX_NODE_LOAD_AVG                       "pmix.node.la"                  /* float */
#define PMIX_NODE_LOAD_AVG5                      "pmix.node.la5"                 /* float */
#define PMIX_NODE_LOAD_AVG15                     "pmix.node.la15"                /* float */
#define PMIX_NODE_MEM_TOTAL                      "pmix.node.mtot"                /* float */
#define PMIX_NODE_MEM_FREE                       "pmix.node.mfree"               /* float */
#define PMIX_NODE_MEM_BUFFERS                    "pmix.node.mbuf"                /* float */
#define PMIX_NODE_MEM_CACHED                     "pmix.node.mcache"              /* float */
#define PMIX_NODE_MEM_SWAP_CACHED                "pmix.node.mswpc"               /* float */
#define PMIX_NODE_SWAP_TOTAL                     "pmix.node.mswpt"               /* float */
#define PMIX_NODE_MEM_SWAP_FREE                  "pmix.node.mswpfree"            /* float */
#define PMIX_NODE_MEM_MAPPED                     "pmix.node.mmap"                /* float */
#define PMIX_NODE_SAMPLE_TIME                    "pmix.node.samptime"            /* time_t */

/* I/O forwarding */
#define PMIX_IOF_INHERIT                         "pmix.iof.inhrt"                /* bool */

/* Groups */
#define PMIX_GROUP_INFO_ARRAY                    "pmix.grp.infoarray"            /* pmix_data_array_t* */
#define PMIX_GROUP_BOOTSTRAP                     "pmix.grp.btstrp"               /* size_t */
#define PMIX_GROUP_JOB_INFO                      "pmix.grp.jinfo"                /* pmix_byte_object_t */
#define PMIX_GROUP_FINAL_MEMBERSHIP_ORDER        "pmix.grp.finord"               /* pmix_data_array_t* */

/* Versions */
#define PMIX_VERSION_NUMERIC                     "pmix.vers.num"                 /* uint32_t */
/* @generated-end additions-attributes */

/* ======================================================================== */
/* 6. Structures                                                            */
/* ======================================================================== */

/* Coordinate of a device in a fabric */
typedef struct pmix_coord {
    pmix_coord_view_t view;
    uint32_t *coord;
    size_t dims;
} pmix_coord_t;

/* A set of processing units; bitmap is an hwloc_bitmap_t when source is "hwloc" */
typedef struct {
    char *source;
    void *bitmap;
} pmix_cpuset_t;

/* A hardware topology; topology is an hwloc_topology_t when source is "hwloc" */
typedef struct {
    char *source;
    void *topology;
} pmix_topology_t;

/* Where a fabric device sits in the fabric */
typedef struct pmix_geometry {
    size_t fabric;
    char *uuid;
    char *osname;
    pmix_coord_t *coordinates;
    size_t ncoords;
} pmix_geometry_t;

/* Distance from a process to a device */
typedef struct pmix_device_distance {
    char *uuid;
    char *osname;
    pmix_device_type_t type;
    uint16_t mindist;
    uint16_t maxdist;
} pmix_device_distance_t;

/* An opaque blob of bytes */
typedef struct pmix_byte_object {
    char *bytes;
    size_t size;
} pmix_byte_object_t;

/* A fabric endpoint of a device */
typedef struct pmix_endpoint {
    char *uuid;
    char *osname;
    pmix_byte_object_t endpt;
} pmix_endpoint_t;

/* A change to one environment variable */
typedef struct {
    char *envar;
    char *value;
    char separator;
} pmix_envar_t;

/* A process: namespace plus rank */
typedef struct pmix_proc {
    pmix_nspace_t nspace;
    pmix_rank_t rank;
} pmix_proc_t;

/* One line of a process table */
typedef struct pmix_proc_info {
    pmix_proc_t proc;
    char *hostname;
    char *executable_name;
    pid_t pid;
    int exit_code;
    pmix_proc_state_t state;
} pmix_proc_info_t;

/* An array of elements of one data type */
typedef struct pmix_data_array {
    pmix_data_type_t type;
    size_t size;
    void *array;
} pmix_data_array_t;

/* A buffer for PMIx_Data_pack/unpack. The header macros manipulate the
 * pointers directly, so the library and user code must agree on them:
 * data lives in [base_ptr, base_ptr + bytes_used), packing appends at pack_ptr,
 * unpacking reads from unpack_ptr. */
typedef struct pmix_data_buffer {
    char *base_ptr;
    char *pack_ptr;
    char *unpack_ptr;
    size_t bytes_allocated;
    size_t bytes_used;
} pmix_data_buffer_t;

/* Resource usage of one process (sizes in MBytes) */
typedef struct pmix_proc_stats {
    char *node;
    pmix_proc_t proc;
    pid_t pid;
    char *cmd;
    char state;
    struct timeval time;
    float percent_cpu;
    int32_t priority;
    uint16_t num_threads;
    float pss;
    float vsize;
    float rss;
    float peak_vsize;
    uint16_t processor;
    struct timeval sample_time;
} pmix_proc_stats_t;

/* Counters of one disk */
typedef struct {
    char *disk;
    uint64_t num_reads_completed;
    uint64_t num_reads_merged;
    uint64_t num_sectors_read;
    uint64_t milliseconds_reading;
    uint64_t num_writes_completed;
    uint64_t num_writes_merged;
    uint64_t num_sectors_written;
    uint64_t milliseconds_writing;
    uint64_t num_ios_in_progress;
    uint64_t milliseconds_io;
    uint64_t weighted_milliseconds_io;
} pmix_disk_stats_t;

/* Counters of one network interface */
typedef struct {
    char *net_interface;
    uint64_t num_bytes_recvd;
    uint64_t num_packets_recvd;
    uint64_t num_recv_errs;
    uint64_t num_bytes_sent;
    uint64_t num_packets_sent;
    uint64_t num_send_errs;
} pmix_net_stats_t;

/* Resource usage of one node (memory in MBytes) */
typedef struct {
    char *node;
    float la;
    float la5;
    float la15;
    float total_mem;
    float free_mem;
    float buffers;
    float cached;
    float swap_cached;
    float swap_total;
    float swap_free;
    float mapped;
    struct timeval sample_time;
    pmix_disk_stats_t *diskstats;
    size_t ndiskstats;
    pmix_net_stats_t *netstats;
    size_t nnetstats;
} pmix_node_stats_t;

/* A typed value; type selects the member of data that is valid */
typedef struct pmix_value {
    pmix_data_type_t type;
    union {
        bool flag;
        uint8_t byte;
        char *string;
        size_t size;
        pid_t pid;
        int integer;
        int8_t int8;
        int16_t int16;
        int32_t int32;
        int64_t int64;
        unsigned int uint;
        uint8_t uint8;
        uint16_t uint16;
        uint32_t uint32;
        uint64_t uint64;
        float fval;
        double dval;
        struct timeval tv;
        time_t time;
        pmix_status_t status;
        pmix_rank_t rank;
        pmix_nspace_t *nspace;
        pmix_proc_t *proc;
        pmix_byte_object_t bo;
        pmix_persistence_t persist;
        pmix_scope_t scope;
        pmix_data_range_t range;
        pmix_proc_state_t state;
        pmix_proc_info_t *pinfo;
        pmix_data_array_t *darray;
        void *ptr;
        pmix_alloc_directive_t adir;
        pmix_envar_t envar;
        pmix_coord_t *coord;
        pmix_link_state_t linkstate;
        pmix_job_state_t jstate;
        pmix_topology_t *topo;
        pmix_cpuset_t *cpuset;
        pmix_locality_t locality;
        pmix_geometry_t *geometry;
        pmix_device_type_t devtype;
        pmix_device_distance_t *devdist;
        pmix_endpoint_t *endpoint;
        pmix_data_buffer_t *dbuf;
        pmix_proc_stats_t *pstats;
        pmix_disk_stats_t *dkstats;
        pmix_net_stats_t *netstats;
        pmix_node_stats_t *ndstats;
    } data;
} pmix_value_t;

/* A key, flags (PMIX_INFO_REQD, ...) and a value */
typedef struct pmix_info {
    pmix_key_t key;
    pmix_info_directives_t flags;
    pmix_value_t value;
} pmix_info_t;

/* Published data: who published it, under which key, and the value */
typedef struct pmix_pdata {
    pmix_proc_t proc;
    pmix_key_t key;
    pmix_value_t value;
} pmix_pdata_t;

/* One application of a spawn request */
typedef struct pmix_app {
    char *cmd;
    char **argv;
    char **env;
    char *cwd;
    int maxprocs;
    pmix_info_t *info;
    size_t ninfo;
} pmix_app_t;

/* One query: keys plus the qualifiers that narrow them */
typedef struct pmix_query {
    char **keys;
    pmix_info_t *qualifiers;
    size_t nqual;
} pmix_query_t;

/* Description of an attribute a library or host supports */
typedef struct pmix_regattr_t {
    char *name;
    pmix_key_t string;
    pmix_data_type_t type;
    char **description;
} pmix_regattr_t;

/* A fabric registered with PMIx_Fabric_register; module belongs to the library */
typedef struct pmix_fabric_s {
    char *name;
    size_t index;
    pmix_info_t *info;
    size_t ninfo;
    void *module;
} pmix_fabric_t;

/* ======================================================================== */
/* 7. Callback types                                                        */
/* ======================================================================== */

/* Lets the receiver of data tell its provider that the data may be freed */
typedef void (*pmix_release_cbfunc_t)(void *cbdata);

/* Delivers a blob of modex data (server side) */
typedef void (*pmix_modex_cbfunc_t)(pmix_status_t status,
                                    const char *data, size_t ndata,
                                    void *cbdata,
                                    pmix_release_cbfunc_t release_fn,
                                    void *release_cbdata);

/* Completion of PMIx_Spawn_nb with the namespace of the new job */
typedef void (*pmix_spawn_cbfunc_t)(pmix_status_t status,
                                    pmix_nspace_t nspace, void *cbdata);

/* Completion of an operation that returns only a status */
typedef void (*pmix_op_cbfunc_t)(pmix_status_t status, void *cbdata);

/* Completion of PMIx_Lookup_nb */
typedef void (*pmix_lookup_cbfunc_t)(pmix_status_t status,
                                     pmix_pdata_t data[], size_t ndata,
                                     void *cbdata);

/* Called by an event handler when it is done, to pass the event along */
typedef void (*pmix_event_notification_cbfunc_fn_t)(pmix_status_t status,
                                                    pmix_info_t *results, size_t nresults,
                                                    pmix_op_cbfunc_t cbfunc, void *thiscbdata,
                                                    void *notification_cbdata);

/* An event handler */
typedef void (*pmix_notification_fn_t)(size_t evhdlr_registration_id,
                                       pmix_status_t status,
                                       const pmix_proc_t *source,
                                       pmix_info_t info[], size_t ninfo,
                                       pmix_info_t *results, size_t nresults,
                                       pmix_event_notification_cbfunc_fn_t cbfunc,
                                       void *cbdata);

/* Completion of a handler registration, with the reference of the handler */
typedef void (*pmix_hdlr_reg_cbfunc_t)(pmix_status_t status,
                                       size_t refid,
                                       void *cbdata);
/* Older name of the same callback */
typedef void (*pmix_evhdlr_reg_cbfunc_t)(pmix_status_t status,
                                         size_t refid,
                                         void *cbdata);

/* Completion of PMIx_Get_nb */
typedef void (*pmix_value_cbfunc_t)(pmix_status_t status,
                                    pmix_value_t *kv, void *cbdata);

/* Completion of an operation that returns an info array (queries and more) */
typedef void (*pmix_info_cbfunc_t)(pmix_status_t status,
                                   pmix_info_t *info, size_t ninfo,
                                   void *cbdata,
                                   pmix_release_cbfunc_t release_fn,
                                   void *release_cbdata);

/* Completion of PMIx_Get_credential_nb */
typedef void (*pmix_credential_cbfunc_t)(pmix_status_t status,
                                         pmix_byte_object_t *credential,
                                         pmix_info_t info[], size_t ninfo,
                                         void *cbdata);

/* Completion of PMIx_Validate_credential_nb */
typedef void (*pmix_validation_cbfunc_t)(pmix_status_t status,
                                         pmix_info_t info[], size_t ninfo,
                                         void *cbdata);

/* Completion of PMIx_Compute_distances_nb */
typedef void (*pmix_device_dist_cbfunc_t)(pmix_status_t status,
                                          pmix_device_distance_t *dist,
                                          size_t ndist,
                                          void *cbdata,
                                          pmix_release_cbfunc_t release_fn,
                                          void *release_cbdata);

/* ======================================================================== */
/* 8. Library functions that macros of this header rely on                  */
/*    pmix.h declares them as well (identically): they are repeated here so */
/*    that a program including only pmix_common.h can use                   */
/*    PMIX_DATA_BUFFER_LOAD/UNLOAD and PMIX_TOPOLOGY_DESTRUCT. Everything    */
/*    else, the *_string converters included, is declared where OpenPMIx    */
/*    declares it: in pmix.h.                                                */
/* ======================================================================== */

PMIX_EXPORT pmix_status_t PMIx_Data_load(pmix_data_buffer_t *buffer,
                                         pmix_byte_object_t *payload);
PMIX_EXPORT pmix_status_t PMIx_Data_unload(pmix_data_buffer_t *buffer,
                                           pmix_byte_object_t *payload);
PMIX_EXPORT void PMIx_Topology_destruct(pmix_topology_t *topo);

/* Value, info and info-list functions, and retired interfaces */
#include <pmix_deprecated.h>

/* ======================================================================== */
/* 9. Inline helpers                                                        */
/*    The macros below expand to these. They allocate with libc only, so     */
/*    memory from the library and from user code can be freed either side.  */
/*    Not part of the standard: call the PMIX_* macros instead.              */
/* ======================================================================== */

#if defined(__cplusplus)
#define PMIXPP_CAST(type, expr) (static_cast<type>(expr))
#else
#define PMIXPP_CAST(type, expr) ((type)(expr))
#endif

/* Copy at most len characters of src into dest and always terminate dest
 * (dest has room for len + 1). Stops early at the end of src, so src need
 * not be terminated within len. */
static inline void pmixpp_bounded_copy(char *dest, const char *src, size_t len)
{
    size_t i = 0;
    if (NULL != src) {
        for (; i < len && '\0' != src[i]; ++i) {
            dest[i] = src[i];
        }
    }
    dest[i] = '\0';
}

/* Length of s, looking at no more than limit characters */
static inline size_t pmixpp_bounded_len(const char *s, size_t limit)
{
    size_t i = 0;
    if (NULL == s) {
        return 0;
    }
    while (i < limit && '\0' != s[i]) {
        ++i;
    }
    return i;
}

static inline char *pmixpp_strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *copy = PMIXPP_CAST(char *, malloc(len));
    if (NULL != copy) {
        memcpy(copy, s, len);
    }
    return copy;
}

/* Zeroed array of n elements of size bytes; NULL when n is 0 */
static inline void *pmixpp_zalloc(size_t n, size_t size)
{
    return (0 == n) ? NULL : calloc(n, size);
}

/* ---- argv: NULL-terminated arrays of malloc'ed strings ---- */

static inline int pmixpp_argv_count(char **argv)
{
    int n = 0;
    if (NULL == argv) {
        return 0;
    }
    while (NULL != argv[n]) {
        ++n;
    }
    return n;
}

/* Make room for one more entry; the array stays NULL-terminated */
static inline pmix_status_t pmixpp_argv_grow(char ***argv_p, int *count_p)
{
    int count = pmixpp_argv_count(*argv_p);
    char **grown = PMIXPP_CAST(char **, realloc(*argv_p, PMIXPP_CAST(size_t, count + 2) * sizeof(char *)));
    if (NULL == grown) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    grown[count] = NULL;
    grown[count + 1] = NULL;
    *argv_p = grown;
    *count_p = count;
    return PMIX_SUCCESS;
}

static inline pmix_status_t pmixpp_argv_append(char ***argv_p, const char *arg)
{
    int count;
    char *copy = pmixpp_strdup(arg);
    if (NULL == copy) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (PMIX_SUCCESS != pmixpp_argv_grow(argv_p, &count)) {
        free(copy);
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    (*argv_p)[count] = copy;
    return PMIX_SUCCESS;
}

static inline pmix_status_t pmixpp_argv_prepend(char ***argv_p, const char *arg)
{
    int count;
    char *copy = pmixpp_strdup(arg);
    if (NULL == copy) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (PMIX_SUCCESS != pmixpp_argv_grow(argv_p, &count)) {
        free(copy);
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    memmove(*argv_p + 1, *argv_p, PMIXPP_CAST(size_t, count) * sizeof(char *));
    (*argv_p)[0] = copy;
    return PMIX_SUCCESS;
}

static inline pmix_status_t pmixpp_argv_append_unique(char ***argv_p, const char *arg)
{
    int i;
    for (i = 0; NULL != *argv_p && NULL != (*argv_p)[i]; ++i) {
        if (0 == strcmp(arg, (*argv_p)[i])) {
            return PMIX_SUCCESS;
        }
    }
    return pmixpp_argv_append(argv_p, arg);
}

static inline void pmixpp_argv_free(char **argv)
{
    int i;
    if (NULL == argv) {
        return;
    }
    for (i = 0; NULL != argv[i]; ++i) {
        free(argv[i]);
    }
    free(argv);
}

/* Append the len characters at token as a new entry */
static inline pmix_status_t pmixpp_argv_append_token(char ***argv_p, const char *token, size_t len)
{
    pmix_status_t rc;
    char *copy = PMIXPP_CAST(char *, malloc(len + 1));
    if (NULL == copy) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    memcpy(copy, token, len);
    copy[len] = '\0';
    rc = pmixpp_argv_append(argv_p, copy);
    free(copy);
    return rc;
}

/* Split text at delimiter. Empty tokens are dropped unless keep_empty; a
 * trailing delimiter never yields an empty last token. Returns NULL for an
 * empty text or when out of memory. */
static inline char **pmixpp_argv_split(const char *text, int delimiter, bool keep_empty)
{
    char **argv = NULL;
    while (NULL != text && '\0' != *text) {
        const char *end = strchr(text, delimiter);
        size_t len = (NULL == end) ? strlen(text) : PMIXPP_CAST(size_t, end - text);
        if (0 < len || keep_empty) {
            if (PMIX_SUCCESS != pmixpp_argv_append_token(&argv, text, len)) {
                pmixpp_argv_free(argv);
                return NULL;
            }
        }
        text += len;
        if ('\0' != *text) {
            ++text;  /* step over the delimiter */
        }
    }
    return argv;
}

/* Join the entries with delimiter; an empty or NULL argv gives "" */
static inline char *pmixpp_argv_join(char **argv, int delimiter)
{
    size_t total = 1, at = 0;
    int i;
    char *joined;
    for (i = 0; NULL != argv && NULL != argv[i]; ++i) {
        total += strlen(argv[i]) + 1;
    }
    joined = PMIXPP_CAST(char *, malloc(total));
    if (NULL == joined) {
        return NULL;
    }
    for (i = 0; NULL != argv && NULL != argv[i]; ++i) {
        size_t len = strlen(argv[i]);
        if (0 < i) {
            joined[at++] = PMIXPP_CAST(char, delimiter);
        }
        memcpy(joined + at, argv[i], len);
        at += len;
    }
    joined[at] = '\0';
    return joined;
}

/* Deep copy; a non-NULL empty argv gives a non-NULL empty copy */
static inline char **pmixpp_argv_copy(char **argv)
{
    char **copy;
    int i;
    if (NULL == argv) {
        return NULL;
    }
    copy = PMIXPP_CAST(char **, calloc(1, sizeof(char *)));
    if (NULL == copy) {
        return NULL;
    }
    for (i = 0; NULL != argv[i]; ++i) {
        if (PMIX_SUCCESS != pmixpp_argv_append(&copy, argv[i])) {
            pmixpp_argv_free(copy);
            return NULL;
        }
    }
    return copy;
}

/* ---- environment arrays ---- */

/* Set name=value in *env_p (value NULL gives "name="). When *env_p is the
 * process environment itself, setenv/unsetenv keep libc's view consistent. */
static inline pmix_status_t pmixpp_setenv(const char *name, const char *value,
                                          bool overwrite, char ***env_p)
{
    size_t name_len, entry_len;
    char *entry;
    int i;
    if (NULL == env_p || NULL == name) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (*env_p == environ) {
        int rc = (NULL == value) ? unsetenv(name) : setenv(name, value, overwrite ? 1 : 0);
        return (0 == rc) ? PMIX_SUCCESS : PMIX_ERR_BAD_PARAM;
    }
    name_len = strlen(name);
    entry_len = name_len + 2 + ((NULL == value) ? 0 : strlen(value));
    entry = PMIXPP_CAST(char *, malloc(entry_len));
    if (NULL == entry) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    snprintf(entry, entry_len, "%s=%s", name, (NULL == value) ? "" : value);
    for (i = 0; NULL != *env_p && NULL != (*env_p)[i]; ++i) {
        if (0 == strncmp((*env_p)[i], entry, name_len + 1)) {
            if (!overwrite) {
                free(entry);
                return PMIX_ERR_EXISTS;
            }
            free((*env_p)[i]);
            (*env_p)[i] = entry;
            return PMIX_SUCCESS;
        }
    }
    {
        pmix_status_t rc = pmixpp_argv_append(env_p, entry);
        free(entry);
        return rc;
    }
}

/* ---- booleans carried as values ---- */

/* Does text start with word, ignoring case? */
static inline bool pmixpp_starts_with_word(const char *text, const char *word)
{
    for (; '\0' != *word; ++text, ++word) {
        if (tolower(PMIXPP_CAST(unsigned char, *text)) != tolower(PMIXPP_CAST(unsigned char, *word))) {
            return false;
        }
    }
    return true;
}

/* A missing value, an empty string or a bool/number/yes/no/true/false string
 * counts as a boolean; an attribute given without a value means "true". */
static inline pmix_boolean_t pmixpp_check_true(const pmix_value_t *value)
{
    const char *text;
    if (PMIX_UNDEF == value->type) {
        return PMIX_BOOL_TRUE;
    }
    if (PMIX_BOOL == value->type) {
        return value->data.flag ? PMIX_BOOL_TRUE : PMIX_BOOL_FALSE;
    }
    if (PMIX_STRING != value->type) {
        return PMIX_NON_BOOL;
    }
    text = value->data.string;
    if (NULL == text) {
        return PMIX_BOOL_TRUE;
    }
    while (isspace(PMIXPP_CAST(unsigned char, *text))) {
        ++text;
    }
    if ('\0' == *text) {
        return PMIX_BOOL_TRUE;
    }
    if (isdigit(PMIXPP_CAST(unsigned char, *text))) {
        return (0 == strtol(text, NULL, 10)) ? PMIX_BOOL_FALSE : PMIX_BOOL_TRUE;
    }
    if (pmixpp_starts_with_word(text, "yes") || pmixpp_starts_with_word(text, "true")) {
        return PMIX_BOOL_TRUE;
    }
    if (pmixpp_starts_with_word(text, "no") || pmixpp_starts_with_word(text, "false")) {
        return PMIX_BOOL_FALSE;
    }
    return PMIX_NON_BOOL;
}

/* ---- destructors of the structures that own memory ---- */

static inline void pmixpp_coord_destruct(pmix_coord_t *c)
{
    c->view = PMIX_COORD_VIEW_UNDEF;
    if (NULL != c->coord) {
        free(c->coord);
        c->coord = NULL;
        c->dims = 0;
    }
}

static inline void pmixpp_coord_free(pmix_coord_t *c, size_t n)
{
    size_t i;
    for (i = 0; NULL != c && i < n; ++i) {
        pmixpp_coord_destruct(&c[i]);
    }
    free(c);
}

/* n coordinates, each with dims zeroed dimensions */
static inline pmix_coord_t *pmixpp_coord_create(size_t n, size_t dims)
{
    size_t i;
    pmix_coord_t *c = PMIXPP_CAST(pmix_coord_t *, pmixpp_zalloc(n, sizeof(pmix_coord_t)));
    for (i = 0; NULL != c && i < n; ++i) {
        c[i].dims = dims;
        c[i].coord = PMIXPP_CAST(uint32_t *, pmixpp_zalloc(dims, sizeof(uint32_t)));
    }
    return c;
}

static inline void pmixpp_geometry_destruct(pmix_geometry_t *g)
{
    free(g->uuid);
    g->uuid = NULL;
    free(g->osname);
    g->osname = NULL;
    if (NULL != g->coordinates) {
        pmixpp_coord_free(g->coordinates, g->ncoords);
        g->coordinates = NULL;
    }
}

static inline void pmixpp_device_dist_construct(pmix_device_distance_t *d)
{
    memset(d, 0, sizeof(*d));
    d->mindist = UINT16_MAX;
    d->maxdist = UINT16_MAX;
}

static inline pmix_device_distance_t *pmixpp_device_dist_create(size_t n)
{
    size_t i;
    pmix_device_distance_t *d =
        PMIXPP_CAST(pmix_device_distance_t *, pmixpp_zalloc(n, sizeof(pmix_device_distance_t)));
    for (i = 0; NULL != d && i < n; ++i) {
        pmixpp_device_dist_construct(&d[i]);
    }
    return d;
}

static inline void pmixpp_device_dist_destruct(pmix_device_distance_t *d)
{
    free(d->uuid);
    free(d->osname);
}

static inline void pmixpp_byte_object_destruct(pmix_byte_object_t *b)
{
    free(b->bytes);
    b->bytes = NULL;
    b->size = 0;
}

static inline void pmixpp_endpoint_destruct(pmix_endpoint_t *e)
{
    free(e->uuid);
    free(e->osname);
    free(e->endpt.bytes);
}

static inline void pmixpp_envar_destruct(pmix_envar_t *e)
{
    free(e->envar);
    e->envar = NULL;
    free(e->value);
    e->value = NULL;
}

static inline void pmixpp_envar_load(pmix_envar_t *e, const char *name, const char *value,
                                     char separator)
{
    if (NULL != name) {
        e->envar = pmixpp_strdup(name);
    }
    if (NULL != value) {
        e->value = pmixpp_strdup(value);
    }
    e->separator = separator;
}

static inline void pmixpp_proc_info_destruct(pmix_proc_info_t *p)
{
    free(p->hostname);
    p->hostname = NULL;
    free(p->executable_name);
    p->executable_name = NULL;
}

static inline void pmixpp_proc_stats_destruct(pmix_proc_stats_t *s)
{
    free(s->node);
    s->node = NULL;
    free(s->cmd);
    s->cmd = NULL;
}

static inline void pmixpp_disk_stats_destruct(pmix_disk_stats_t *s)
{
    free(s->disk);
    s->disk = NULL;
}

static inline void pmixpp_net_stats_destruct(pmix_net_stats_t *s)
{
    free(s->net_interface);
    s->net_interface = NULL;
}

static inline void pmixpp_node_stats_destruct(pmix_node_stats_t *s)
{
    size_t i;
    free(s->node);
    s->node = NULL;
    for (i = 0; NULL != s->diskstats && i < s->ndiskstats; ++i) {
        pmixpp_disk_stats_destruct(&s->diskstats[i]);
    }
    free(s->diskstats);
    s->diskstats = NULL;
    for (i = 0; NULL != s->netstats && i < s->nnetstats; ++i) {
        pmixpp_net_stats_destruct(&s->netstats[i]);
    }
    free(s->netstats);
    s->netstats = NULL;
}

/* Info arrays carry PMIX_INFO_ARRAY_END on their last element */
static inline pmix_info_t *pmixpp_info_create(size_t n)
{
    pmix_info_t *info = PMIXPP_CAST(pmix_info_t *, pmixpp_zalloc(n, sizeof(pmix_info_t)));
    if (NULL != info) {
        info[n - 1].flags = PMIX_INFO_ARRAY_END;
    }
    return info;
}

/* Persistent entries do not own their value, so it is left alone */
static inline void pmixpp_info_destruct(pmix_info_t *info)
{
    if (!(info->flags & PMIX_INFO_PERSISTENT)) {
        PMIx_Value_destruct(&info->value);
    }
}

static inline void pmixpp_info_free(pmix_info_t *info, size_t n)
{
    size_t i;
    for (i = 0; NULL != info && i < n; ++i) {
        pmixpp_info_destruct(&info[i]);
    }
    free(info);
}

static inline void pmixpp_value_free(pmix_value_t *v, size_t n)
{
    size_t i;
    for (i = 0; NULL != v && i < n; ++i) {
        PMIx_Value_destruct(&v[i]);
    }
    free(v);
}

static inline void pmixpp_pdata_free(pmix_pdata_t *p, size_t n)
{
    size_t i;
    for (i = 0; NULL != p && i < n; ++i) {
        PMIx_Value_destruct(&p[i].value);
    }
    free(p);
}

static inline void pmixpp_app_destruct(pmix_app_t *app)
{
    free(app->cmd);
    app->cmd = NULL;
    pmixpp_argv_free(app->argv);
    app->argv = NULL;
    pmixpp_argv_free(app->env);
    app->env = NULL;
    free(app->cwd);
    app->cwd = NULL;
    if (NULL != app->info) {
        pmixpp_info_free(app->info, app->ninfo);
        app->info = NULL;
        app->ninfo = 0;
    }
}

static inline void pmixpp_app_free(pmix_app_t *apps, size_t n)
{
    size_t i;
    for (i = 0; NULL != apps && i < n; ++i) {
        pmixpp_app_destruct(&apps[i]);
    }
    free(apps);
}

static inline void pmixpp_query_destruct(pmix_query_t *q)
{
    pmixpp_argv_free(q->keys);
    q->keys = NULL;
    if (NULL != q->qualifiers) {
        pmixpp_info_free(q->qualifiers, q->nqual);
        q->qualifiers = NULL;
        q->nqual = 0;
    }
}

static inline void pmixpp_query_free(pmix_query_t *q, size_t n)
{
    size_t i;
    for (i = 0; NULL != q && i < n; ++i) {
        pmixpp_query_destruct(&q[i]);
    }
    free(q);
}

static inline void pmixpp_regattr_construct(pmix_regattr_t *a)
{
    a->name = NULL;
    memset(a->string, 0, sizeof(a->string));
    a->type = PMIX_UNDEF;
    a->description = NULL;
}

static inline void pmixpp_regattr_destruct(pmix_regattr_t *a)
{
    free(a->name);
    a->name = NULL;
    pmixpp_argv_free(a->description);
    a->description = NULL;
}

static inline void pmixpp_regattr_load(pmix_regattr_t *a, const char *name, const char *key,
                                       pmix_data_type_t type, const char *description)
{
    if (NULL != name) {
        a->name = pmixpp_strdup(name);
    }
    if (NULL != key) {
        memset(a->string, 0, sizeof(a->string));
        pmixpp_bounded_copy(a->string, key, PMIX_MAX_KEYLEN);
    }
    a->type = type;
    if (NULL != description) {
        (void)pmixpp_argv_append(&a->description, description);
    }
}

static inline void pmixpp_regattr_xfer(pmix_regattr_t *dest, const pmix_regattr_t *src)
{
    pmixpp_regattr_construct(dest);
    if (NULL != src->name) {
        dest->name = pmixpp_strdup(src->name);
    }
    pmixpp_bounded_copy(dest->string, src->string, PMIX_MAX_KEYLEN);
    dest->type = src->type;
    dest->description = pmixpp_argv_copy(src->description);
}

static inline void pmixpp_regattr_free(pmix_regattr_t *a, size_t n)
{
    size_t i;
    for (i = 0; NULL != a && i < n; ++i) {
        pmixpp_regattr_destruct(&a[i]);
    }
    free(a);
}

/* ---- data arrays ---- */

/* Bytes one element of a plain (pointer-free) type occupies; 0 if the type
 * is not a plain one */
static inline size_t pmixpp_plain_element_size(pmix_data_type_t type)
{
    switch (type) {
    case PMIX_ALLOC_DIRECTIVE: case PMIX_PROC_STATE: case PMIX_PERSIST: case PMIX_SCOPE:
    case PMIX_DATA_RANGE: case PMIX_BYTE: case PMIX_INT8: case PMIX_UINT8:
        return 1;
    case PMIX_POINTER: return sizeof(void *);
    case PMIX_STRING: return sizeof(char *);
    case PMIX_SIZE: return sizeof(size_t);
    case PMIX_PID: return sizeof(pid_t);
    case PMIX_INT: case PMIX_UINT: case PMIX_STATUS: return sizeof(int);
    case PMIX_IOF_CHANNEL: case PMIX_DATA_TYPE: case PMIX_INT16: case PMIX_UINT16:
        return sizeof(int16_t);
    case PMIX_PROC_RANK: case PMIX_INFO_DIRECTIVES: case PMIX_INT32: case PMIX_UINT32:
        return sizeof(int32_t);
    case PMIX_INT64: case PMIX_UINT64: return sizeof(int64_t);
    case PMIX_FLOAT: return sizeof(float);
    case PMIX_DOUBLE: return sizeof(double);
    case PMIX_TIMEVAL: return sizeof(struct timeval);
    case PMIX_TIME: return sizeof(time_t);
    case PMIX_BOOL: return sizeof(bool);
    case PMIX_COORD: return sizeof(pmix_coord_t);
    case PMIX_LINK_STATE: return sizeof(pmix_link_state_t);
    case PMIX_PROC_NSPACE: return sizeof(pmix_nspace_t);
    case PMIX_INFO: return sizeof(pmix_info_t);
    case PMIX_PROC: return sizeof(pmix_proc_t);
    case PMIX_PROC_INFO: return sizeof(pmix_proc_info_t);
    case PMIX_ENVAR: return sizeof(pmix_envar_t);
    case PMIX_VALUE: return sizeof(pmix_value_t);
    case PMIX_PDATA: return sizeof(pmix_pdata_t);
    case PMIX_QUERY: return sizeof(pmix_query_t);
    case PMIX_APP: return sizeof(pmix_app_t);
    case PMIX_BYTE_OBJECT: case PMIX_COMPRESSED_STRING: return sizeof(pmix_byte_object_t);
    case PMIX_REGATTR: return sizeof(pmix_regattr_t);
    case PMIX_ENDPOINT: return sizeof(pmix_endpoint_t);
    case PMIX_PROC_STATS: return sizeof(pmix_proc_stats_t);
    case PMIX_DISK_STATS: return sizeof(pmix_disk_stats_t);
    case PMIX_NET_STATS: return sizeof(pmix_net_stats_t);
    case PMIX_NODE_STATS: return sizeof(pmix_node_stats_t);
    case PMIX_GEOMETRY: return sizeof(pmix_geometry_t);
    case PMIX_PROC_CPUSET: return sizeof(pmix_cpuset_t);
    default: return 0;
    }
}

/* Zeroed storage for n elements of type; an unknown type gives an empty array */
static inline void pmixpp_data_array_construct(pmix_data_array_t *a, size_t n,
                                               pmix_data_type_t type)
{
    size_t element_size;
    a->type = type;
    a->size = n;
    a->array = NULL;
    if (0 == n) {
        return;
    }
    if (PMIX_INFO == type) {
        a->array = pmixpp_info_create(n);
        return;
    }
    if (PMIX_DEVICE_DIST == type) {
        a->array = pmixpp_device_dist_create(n);
        return;
    }
    element_size = pmixpp_plain_element_size(type);
    if (0 == element_size) {
        a->size = 0;
        return;
    }
    a->array = calloc(n, element_size);
}

static inline pmix_data_array_t *pmixpp_data_array_create(size_t n, pmix_data_type_t type)
{
    pmix_data_array_t *a = PMIXPP_CAST(pmix_data_array_t *, calloc(1, sizeof(pmix_data_array_t)));
    if (NULL != a) {
        pmixpp_data_array_construct(a, n, type);
    }
    return a;
}

/* ---- namespaces ---- */

/* An absent or empty namespace */
static inline bool pmixpp_nspace_invalid(const char *nspace)
{
    return NULL == nspace || '\0' == nspace[0];
}

/* Equal namespaces; an absent or empty one matches anything */
static inline bool pmixpp_check_nspace(const char *a, const char *b)
{
    return pmixpp_nspace_invalid(a) || pmixpp_nspace_invalid(b) || 0 == strncmp(a, b, PMIX_MAX_NSLEN);
}

/* ---- multi-cluster namespaces: "cluster:nspace" ---- */

static inline void pmixpp_multicluster_construct(char *target, const char *cluster,
                                                 const char *nspace)
{
    size_t clen = pmixpp_bounded_len(cluster, PMIX_MAX_NSLEN + 1);
    size_t nlen = pmixpp_bounded_len(nspace, PMIX_MAX_NSLEN + 1);
    memset(target, 0, PMIX_MAX_NSLEN + 1);
    if (clen + nlen < PMIX_MAX_NSLEN) {
        memcpy(target, cluster, clen);
        target[clen] = ':';
        memcpy(target + clen + 1, nspace, nlen);
    }
}

static inline void pmixpp_multicluster_parse(const char *source, char *cluster, char *nspace)
{
    size_t i = 0, j = 0;
    for (; i < PMIX_MAX_NSLEN && '\0' != source[i] && ':' != source[i]; ++i) {
        cluster[i] = source[i];
    }
    cluster[i] = '\0';
    if (':' != source[i]) {
        nspace[0] = '\0';
        return;
    }
    for (++i; i <= PMIX_MAX_NSLEN && j < PMIX_MAX_NSLEN && '\0' != source[i]; ++i, ++j) {
        nspace[j] = source[i];
    }
    nspace[j] = '\0';
}

/* ---- the same helpers under the names OpenPMIx 4.2 gives them ----
 * OpenPMIx's pmix_common.h defines these as static inline functions, and
 * programs written against it call them directly (its examples split strings
 * with pmix_argv_split, for instance). Being static inline, they are compiled
 * into the caller and never exported by libpmix.so.2. Their behaviour is
 * OpenPMIx's: in particular the *_free functions below destruct the n
 * elements but leave the array itself to the caller (the PMIX_*_FREE macros
 * free it). */

static inline void *pmix_malloc(size_t n)
{
    return malloc(n);
}

static inline void pmix_free(void *m)
{
    free(m);
}

static inline void *pmix_calloc(size_t n, size_t m)
{
    return calloc(n, m);
}

/* dest has room for len + 1 characters */
static inline void pmix_strncpy(char *dest, const char *src, size_t len)
{
    pmixpp_bounded_copy(dest, src, len);
}

/* Both lengths stop one past the maximum, so an overlong key or namespace
 * shows as longer than allowed instead of being read without bound. */
static inline size_t pmix_keylen(const char *src)
{
    return pmixpp_bounded_len(src, PMIX_MAX_KEYLEN + 1);
}

static inline size_t pmix_nslen(const char *src)
{
    return pmixpp_bounded_len(src, PMIX_MAX_NSLEN + 1);
}

static inline int pmix_argv_count(char **argv)
{
    return pmixpp_argv_count(argv);
}

static inline pmix_status_t pmix_argv_append_nosize(char ***argv, const char *arg)
{
    if (NULL == argv || NULL == arg) {
        return PMIX_ERR_BAD_PARAM;
    }
    return pmixpp_argv_append(argv, arg);
}

static inline pmix_status_t pmix_argv_prepend_nosize(char ***argv, const char *arg)
{
    if (NULL == argv || NULL == arg) {
        return PMIX_ERR_BAD_PARAM;
    }
    return pmixpp_argv_prepend(argv, arg);
}

static inline pmix_status_t pmix_argv_append_unique_nosize(char ***argv, const char *arg)
{
    if (NULL == argv || NULL == arg) {
        return PMIX_ERR_BAD_PARAM;
    }
    return pmixpp_argv_append_unique(argv, arg);
}

static inline void pmix_argv_free(char **argv)
{
    pmixpp_argv_free(argv);
}

static inline char **pmix_argv_split_inter(const char *src_string, int delimiter,
                                           bool include_empty)
{
    return pmixpp_argv_split(src_string, delimiter, include_empty);
}

static inline char **pmix_argv_split_with_empty(const char *src_string, int delimiter)
{
    return pmixpp_argv_split(src_string, delimiter, true);
}

static inline char **pmix_argv_split(const char *src_string, int delimiter)
{
    return pmixpp_argv_split(src_string, delimiter, false);
}

static inline char *pmix_argv_join(char **argv, int delimiter)
{
    return pmixpp_argv_join(argv, delimiter);
}

static inline char **pmix_argv_copy(char **argv)
{
    return pmixpp_argv_copy(argv);
}

static inline pmix_status_t pmix_setenv(const char *name, const char *value, bool overwrite,
                                        char ***env)
{
    return pmixpp_setenv(name, value, overwrite, env);
}

static inline pmix_boolean_t pmix_check_true(const pmix_value_t *value)
{
    return pmixpp_check_true(value);
}

static inline void pmixpp_pdata_destruct(pmix_pdata_t *p)
{
    PMIx_Value_destruct(&p->value);
}

/* Defines `void name(type *array, size_t n)`, which destructs the n elements
 * of array (NULL allowed) and leaves the array itself to the caller. */
#define PMIXPP_DEFINE_ELEMENTS_DESTRUCT(name, type, destruct_one)    \
    static inline void name(type *array, size_t n)                   \
    {                                                                \
        size_t i;                                                    \
        for (i = 0; NULL != array && i < n; ++i) {                   \
            destruct_one(&array[i]);                                 \
        }                                                            \
    }

PMIXPP_DEFINE_ELEMENTS_DESTRUCT(pmix_proc_stats_free, pmix_proc_stats_t, pmixpp_proc_stats_destruct)
PMIXPP_DEFINE_ELEMENTS_DESTRUCT(pmix_disk_stats_free, pmix_disk_stats_t, pmixpp_disk_stats_destruct)
PMIXPP_DEFINE_ELEMENTS_DESTRUCT(pmix_net_stats_free, pmix_net_stats_t, pmixpp_net_stats_destruct)
PMIXPP_DEFINE_ELEMENTS_DESTRUCT(pmix_node_stats_free, pmix_node_stats_t, pmixpp_node_stats_destruct)
PMIXPP_DEFINE_ELEMENTS_DESTRUCT(pmix_app_free, pmix_app_t, pmixpp_app_destruct)
PMIXPP_DEFINE_ELEMENTS_DESTRUCT(pmix_pdata_free, pmix_pdata_t, pmixpp_pdata_destruct)

/* ======================================================================== */
/* 10. Macros of the standard                                               */
/*     Arguments named m, a, ... follow the standard's argument lists.      */
/*     CREATE allocates zeroed arrays (NULL for a count of 0), CONSTRUCT    */
/*     zeroes an object, DESTRUCT frees what an object owns, FREE/RELEASE   */
/*     destruct and free an array/object (and reset the pointer where the   */
/*     standard does).                                                      */
/* ======================================================================== */

/* ---- ranks, events, keys, namespaces, process ids ---- */

#define PMIX_RANK_IS_VALID(r) ((r) < PMIX_RANK_VALID)

#define PMIX_SYSTEM_EVENT(a) \
    ((a) <= PMIX_EVENT_SYS_BASE && PMIX_EVENT_SYS_OTHER <= (a))

/* a: pointer to a struct with a key member; b: string */
#define PMIX_CHECK_KEY(a, b) (0 == strncmp((a)->key, (b), PMIX_MAX_KEYLEN))

#define PMIX_CHECK_RESERVED_KEY(a) (0 == strncmp((a), "pmix", 4))

#define PMIX_LOAD_KEY(a, b)                                                         \
    do {                                                                            \
        memset((a), 0, PMIX_MAX_KEYLEN + 1);                                        \
        pmixpp_bounded_copy(PMIXPP_CAST(char *, (a)), (b), PMIX_MAX_KEYLEN);        \
    } while (0)

#define PMIX_LOAD_NSPACE(a, b)                                                      \
    do {                                                                            \
        memset((a), 0, PMIX_MAX_NSLEN + 1);                                         \
        pmixpp_bounded_copy(PMIXPP_CAST(char *, (a)), (b), PMIX_MAX_NSLEN);         \
    } while (0)

#define PMIX_NSPACE_INVALID(a) pmixpp_nspace_invalid(a)

/* An empty namespace on either side matches anything */
#define PMIX_CHECK_NSPACE(a, b) pmixpp_check_nspace((a), (b))

#define PMIX_LOAD_PROCID(a, b, c)               \
    do {                                        \
        PMIX_LOAD_NSPACE((a)->nspace, (b));     \
        (a)->rank = (c);                        \
    } while (0)

#define PMIX_XFER_PROCID(a, b) memcpy((a), (b), sizeof(pmix_proc_t))
#define PMIX_PROCID_XFER(a, b) PMIX_XFER_PROCID(a, b)

/* PMIX_RANK_WILDCARD on either side matches any rank */
#define PMIX_CHECK_RANK(a, b) \
    ((a) == (b) || PMIX_RANK_WILDCARD == (a) || PMIX_RANK_WILDCARD == (b))

#define PMIX_CHECK_PROCID(a, b) \
    (PMIX_CHECK_NSPACE((a)->nspace, (b)->nspace) && PMIX_CHECK_RANK((a)->rank, (b)->rank))

#define PMIX_PROCID_INVALID(a) \
    (PMIX_NSPACE_INVALID((a)->nspace) || PMIX_RANK_INVALID == (a)->rank)

/* ---- argv arrays and environments ---- */

#define PMIX_ARGV_COUNT(r, a) (r) = pmixpp_argv_count(a)
/* a: the char** array itself */
#define PMIX_ARGV_APPEND(r, a, b) (r) = pmixpp_argv_append(&(a), (b))
#define PMIX_ARGV_PREPEND(r, a, b) (r) = pmixpp_argv_prepend(&(a), (b))
/* a: the address of the char** array, unlike PMIX_ARGV_APPEND */
#define PMIX_ARGV_APPEND_UNIQUE(r, a, b) (r) = pmixpp_argv_append_unique((a), (b))
#define PMIX_ARGV_FREE(a) pmixpp_argv_free(a)
#define PMIX_ARGV_SPLIT(a, b, c) (a) = pmixpp_argv_split((b), (c), false)
#define PMIX_ARGV_JOIN(a, b, c) (a) = pmixpp_argv_join((b), (c))
#define PMIX_ARGV_COPY(a, b) (a) = pmixpp_argv_copy(b)
/* c: address of an environment array (may be &environ); always overwrites */
#define PMIX_SETENV(r, a, b, c) (r) = pmixpp_setenv((a), (b), true, (c))

/* ---- static initializers ---- */

#define PMIX_COORD_STATIC_INIT { .view = PMIX_COORD_VIEW_UNDEF, .coord = NULL, .dims = 0 }
#define PMIX_CPUSET_STATIC_INIT { .source = NULL, .bitmap = NULL }
#define PMIX_TOPOLOGY_STATIC_INIT { .source = NULL, .topology = NULL }
#define PMIX_GEOMETRY_STATIC_INIT \
    { .fabric = 0, .uuid = NULL, .osname = NULL, .coordinates = NULL, .ncoords = 0 }
#define PMIX_DEVICE_DIST_STATIC_INIT \
    { .uuid = NULL, .osname = NULL, .type = PMIX_DEVTYPE_UNKNOWN, .mindist = 0, .maxdist = 0 }
#define PMIX_BYTE_OBJECT_STATIC_INIT { .bytes = NULL, .size = 0 }
#define PMIX_ENDPOINT_STATIC_INIT \
    { .uuid = NULL, .osname = NULL, .endpt = PMIX_BYTE_OBJECT_STATIC_INIT }
#define PMIX_ENVAR_STATIC_INIT { .envar = NULL, .value = NULL, .separator = '\0' }
#define PMIX_DATA_BUFFER_STATIC_INIT \
    { .base_ptr = NULL, .pack_ptr = NULL, .unpack_ptr = NULL, .bytes_allocated = 0, .bytes_used = 0 }
#define PMIX_PROC_STATIC_INIT { .nspace = {0}, .rank = PMIX_RANK_UNDEF }
#define PMIX_PROC_INFO_STATIC_INIT                                                  \
    { .proc = PMIX_PROC_STATIC_INIT, .hostname = NULL, .executable_name = NULL,     \
      .pid = 0, .exit_code = 0, .state = PMIX_PROC_STATE_UNDEF }
#define PMIX_DATA_ARRAY_STATIC_INIT { .type = PMIX_UNDEF, .size = 0, .array = NULL }
#define PMIX_PROC_STATS_STATIC_INIT                                                 \
    { .node = NULL, .proc = PMIX_PROC_STATIC_INIT, .pid = 0, .cmd = NULL,           \
      .state = '\0', .time = {0, 0}, .percent_cpu = 0.0, .priority = 0,             \
      .num_threads = 0, .pss = 0.0, .vsize = 0.0, .rss = 0.0, .peak_vsize = 0.0,    \
      .processor = 0, .sample_time = {0, 0} }
#define PMIX_DISK_STATS_STATIC_INIT                                                 \
    { .disk = NULL, .num_reads_completed = 0, .num_reads_merged = 0,                \
      .num_sectors_read = 0, .milliseconds_reading = 0, .num_writes_completed = 0,  \
      .num_writes_merged = 0, .num_sectors_written = 0, .milliseconds_writing = 0,  \
      .num_ios_in_progress = 0, .milliseconds_io = 0, .weighted_milliseconds_io = 0 }
#define PMIX_NET_STATS_STATIC_INIT                                                  \
    { .net_interface = NULL, .num_bytes_recvd = 0, .num_packets_recvd = 0,          \
      .num_recv_errs = 0, .num_bytes_sent = 0, .num_packets_sent = 0,               \
      .num_send_errs = 0 }
#define PMIX_NODE_STATS_STATIC_INIT                                                 \
    { .node = NULL, .la = 0, .la5 = 0, .la15 = 0, .total_mem = 0.0,                 \
      .free_mem = 0.0, .buffers = 0.0, .cached = 0.0, .swap_cached = 0.0,           \
      .swap_total = 0.0, .swap_free = 0.0, .mapped = 0.0, .sample_time = {0, 0},    \
      .diskstats = NULL, .ndiskstats = 0, .netstats = NULL, .nnetstats = 0 }
#define PMIX_VALUE_STATIC_INIT { .type = PMIX_UNDEF, .data = { .ptr = NULL } }
#define PMIX_INFO_STATIC_INIT { .key = {0}, .flags = 0, .value = PMIX_VALUE_STATIC_INIT }
#define PMIX_LOOKUP_STATIC_INIT \
    { .proc = PMIX_PROC_STATIC_INIT, .key = {0}, .value = PMIX_VALUE_STATIC_INIT }
#define PMIX_APP_STATIC_INIT                                                        \
    { .cmd = NULL, .argv = NULL, .env = NULL, .cwd = NULL, .maxprocs = 0,           \
      .info = NULL, .ninfo = 0 }
#define PMIX_QUERY_STATIC_INIT { .keys = NULL, .qualifiers = NULL, .nqual = 0 }
#define PMIX_REGATTR_STATIC_INIT \
    { .name = NULL, .string = {0}, .type = PMIX_UNDEF, .description = NULL }
#define PMIX_FABRIC_STATIC_INIT \
    { .name = NULL, .index = 0, .info = NULL, .ninfo = 0, .module = NULL }

/* Zeroed array of n objects of a type, assigned to m */
#define PMIXPP_CREATE(m, n, type) \
    (m) = PMIXPP_CAST(type *, pmixpp_zalloc((n), sizeof(type)))

/* ---- coordinates, cpusets, topologies, geometry, device distances ---- */

/* d coordinates of n zeroed dimensions each */
#define PMIX_COORD_CREATE(m, d, n) (m) = pmixpp_coord_create((d), (n))
#define PMIX_COORD_CONSTRUCT(m) memset((m), 0, sizeof(pmix_coord_t))
#define PMIX_COORD_DESTRUCT(m) pmixpp_coord_destruct(m)
#define PMIX_COORD_FREE(m, n)                   \
    do {                                        \
        pmixpp_coord_free((m), (n));            \
        (m) = NULL;                             \
    } while (0)

#define PMIX_CPUSET_CONSTRUCT(m) memset((m), 0, sizeof(pmix_cpuset_t))
#define PMIX_CPUSET_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_cpuset_t)

#define PMIX_TOPOLOGY_CONSTRUCT(m) memset((m), 0, sizeof(pmix_topology_t))
#define PMIX_TOPOLOGY_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_topology_t)

#define PMIX_GEOMETRY_CONSTRUCT(m) memset((m), 0, sizeof(pmix_geometry_t))
#define PMIX_GEOMETRY_DESTRUCT(m) pmixpp_geometry_destruct(m)
#define PMIX_GEOMETRY_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_geometry_t)
#define PMIX_GEOMETRY_FREE(m, n)                                    \
    do {                                                            \
        size_t _pmixpp_i;                                           \
        if (NULL != (m)) {                                          \
            for (_pmixpp_i = 0; _pmixpp_i < (n); _pmixpp_i++) {     \
                pmixpp_geometry_destruct(&(m)[_pmixpp_i]);          \
            }                                                       \
            free(m);                                                \
            (m) = NULL;                                             \
        }                                                           \
    } while (0)

/* Distances start out as "unknown" (UINT16_MAX) */
#define PMIX_DEVICE_DIST_CONSTRUCT(m) pmixpp_device_dist_construct(m)
#define PMIX_DEVICE_DIST_DESTRUCT(m) pmixpp_device_dist_destruct(m)
#define PMIX_DEVICE_DIST_CREATE(m, n) (m) = pmixpp_device_dist_create(n)
#define PMIX_DEVICE_DIST_FREE(m, n)                                 \
    do {                                                            \
        size_t _pmixpp_i;                                           \
        if (NULL != (m)) {                                          \
            for (_pmixpp_i = 0; _pmixpp_i < (n); _pmixpp_i++) {     \
                pmixpp_device_dist_destruct(&(m)[_pmixpp_i]);       \
            }                                                       \
            free(m);                                                \
            (m) = NULL;                                             \
        }                                                           \
    } while (0)

/* ---- byte objects, endpoints, environment changes ---- */

#define PMIX_BYTE_OBJECT_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_byte_object_t)
#define PMIX_BYTE_OBJECT_CONSTRUCT(m)   \
    do {                                \
        (m)->bytes = NULL;              \
        (m)->size = 0;                  \
    } while (0)
#define PMIX_BYTE_OBJECT_DESTRUCT(m) pmixpp_byte_object_destruct(m)
#define PMIX_BYTE_OBJECT_FREE(m, n)                                 \
    do {                                                            \
        size_t _pmixpp_i;                                           \
        if (NULL != (m)) {                                          \
            for (_pmixpp_i = 0; _pmixpp_i < (n); _pmixpp_i++) {     \
                pmixpp_byte_object_destruct(&(m)[_pmixpp_i]);       \
            }                                                       \
            free(m);                                                \
            (m) = NULL;                                             \
        }                                                           \
    } while (0)
/* Moves the data: the object takes d over, and d/s are cleared */
#define PMIX_BYTE_OBJECT_LOAD(b, d, s)          \
    do {                                        \
        (b)->bytes = PMIXPP_CAST(char *, (d));  \
        (d) = NULL;                             \
        (b)->size = (s);                        \
        (s) = 0;                                \
    } while (0)

#define PMIX_ENDPOINT_CONSTRUCT(m) memset((m), 0, sizeof(pmix_endpoint_t))
#define PMIX_ENDPOINT_DESTRUCT(m) pmixpp_endpoint_destruct(m)
#define PMIX_ENDPOINT_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_endpoint_t)
#define PMIX_ENDPOINT_FREE(m, n)                                    \
    do {                                                            \
        size_t _pmixpp_i;                                           \
        if (NULL != (m)) {                                          \
            for (_pmixpp_i = 0; _pmixpp_i < (n); _pmixpp_i++) {     \
                pmixpp_endpoint_destruct(&(m)[_pmixpp_i]);          \
            }                                                       \
            free(m);                                                \
            (m) = NULL;                                             \
        }                                                           \
    } while (0)

#define PMIX_ENVAR_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_envar_t)
#define PMIX_ENVAR_CONSTRUCT(m) memset((m), 0, sizeof(pmix_envar_t))
#define PMIX_ENVAR_DESTRUCT(m) pmixpp_envar_destruct(m)
#define PMIX_ENVAR_LOAD(m, e, v, s) pmixpp_envar_load((m), (e), (v), (s))
#define PMIX_ENVAR_FREE(m, n)                                       \
    do {                                                            \
        size_t _pmixpp_i;                                           \
        if (NULL != (m)) {                                          \
            for (_pmixpp_i = 0; _pmixpp_i < (n); _pmixpp_i++) {     \
                pmixpp_envar_destruct(&(m)[_pmixpp_i]);             \
            }                                                       \
            free(m);                                                \
        }                                                           \
    } while (0)

/* ---- data buffers (contents are packed by PMIx_Data_pack) ---- */

#define PMIX_DATA_BUFFER_CREATE(m) PMIXPP_CREATE(m, 1, pmix_data_buffer_t)
#define PMIX_DATA_BUFFER_CONSTRUCT(m) memset((m), 0, sizeof(pmix_data_buffer_t))
#define PMIX_DATA_BUFFER_DESTRUCT(m)    \
    do {                                \
        free((m)->base_ptr);            \
        (m)->base_ptr = NULL;           \
        (m)->pack_ptr = NULL;           \
        (m)->unpack_ptr = NULL;         \
        (m)->bytes_allocated = 0;       \
        (m)->bytes_used = 0;            \
    } while (0)
#define PMIX_DATA_BUFFER_RELEASE(m)     \
    do {                                \
        free((m)->base_ptr);            \
        free(m);                        \
        (m) = NULL;                     \
    } while (0)
/* Hands the s bytes at d over to buffer b (d is freed with the buffer) */
#define PMIX_DATA_BUFFER_LOAD(b, d, s)                      \
    do {                                                    \
        pmix_byte_object_t _pmixpp_bo;                      \
        _pmixpp_bo.bytes = PMIXPP_CAST(char *, (d));        \
        _pmixpp_bo.size = (s);                              \
        (void)PMIx_Data_load((b), &_pmixpp_bo);             \
    } while (0)
/* Takes the unread bytes out of b: d/s get them, or NULL/0 */
#define PMIX_DATA_BUFFER_UNLOAD(b, d, s)                                \
    do {                                                                \
        pmix_byte_object_t _pmixpp_bo;                                  \
        if (PMIX_SUCCESS == PMIx_Data_unload((b), &_pmixpp_bo)) {       \
            (d) = _pmixpp_bo.bytes;                                     \
            (s) = _pmixpp_bo.size;                                      \
        } else {                                                        \
            (d) = NULL;                                                 \
            (s) = 0;                                                    \
        }                                                               \
    } while (0)

/* ---- process ids and process information ---- */

#define PMIX_PROC_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_proc_t)
#define PMIX_PROC_CONSTRUCT(m) memset((m), 0, sizeof(pmix_proc_t))
#define PMIX_PROC_DESTRUCT(m)
#define PMIX_PROC_RELEASE(m)    \
    do {                        \
        free(m);                \
        (m) = NULL;             \
    } while (0)
#define PMIX_PROC_FREE(m, n)    \
    do {                        \
        free(m);                \
        (m) = NULL;             \
    } while (0)
#define PMIX_PROC_LOAD(m, n, r)                 \
    do {                                        \
        PMIX_PROC_CONSTRUCT(m);                 \
        PMIX_LOAD_NSPACE((m)->nspace, (n));     \
        (m)->rank = (r);                        \
    } while (0)

/* t = "c:n" when it fits into a namespace, else empty */
#define PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(t, c, n) \
    pmixpp_multicluster_construct(PMIXPP_CAST(char *, (t)), (c), (n))
#define PMIX_MULTICLUSTER_NSPACE_PARSE(t, c, n) \
    pmixpp_multicluster_parse((t), PMIXPP_CAST(char *, (c)), PMIXPP_CAST(char *, (n)))

#define PMIX_PROC_INFO_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_proc_info_t)
#define PMIX_PROC_INFO_CONSTRUCT(m) memset((m), 0, sizeof(pmix_proc_info_t))
#define PMIX_PROC_INFO_DESTRUCT(m) pmixpp_proc_info_destruct(m)
#define PMIX_PROC_INFO_FREE(m, n)                                   \
    do {                                                            \
        size_t _pmixpp_i;                                           \
        if (NULL != (m)) {                                          \
            for (_pmixpp_i = 0; _pmixpp_i < (n); _pmixpp_i++) {     \
                pmixpp_proc_info_destruct(&(m)[_pmixpp_i]);         \
            }                                                       \
            free(m);                                                \
        }                                                           \
    } while (0)
#define PMIX_PROC_INFO_RELEASE(m) PMIX_PROC_INFO_FREE((m), 1)

/* ---- resource statistics ---- */

#define PMIXPP_STATS_FREE(m, n, destruct)                           \
    do {                                                            \
        size_t _pmixpp_i;                                           \
        for (_pmixpp_i = 0; NULL != (m) && _pmixpp_i < (n); _pmixpp_i++) { \
            destruct(&(m)[_pmixpp_i]);                              \
        }                                                           \
        free(m);                                                    \
        (m) = NULL;                                                 \
    } while (0)

#define PMIX_PROC_STATS_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_proc_stats_t)
#define PMIX_PROC_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_proc_stats_t))
#define PMIX_PROC_STATS_DESTRUCT(m) pmixpp_proc_stats_destruct(m)
#define PMIX_PROC_STATS_FREE(m, n) PMIXPP_STATS_FREE(m, n, pmixpp_proc_stats_destruct)
#define PMIX_PROC_STATS_RELEASE(m) PMIX_PROC_STATS_FREE((m), 1)

#define PMIX_DISK_STATS_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_disk_stats_t)
#define PMIX_DISK_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_disk_stats_t))
#define PMIX_DISK_STATS_DESTRUCT(m) pmixpp_disk_stats_destruct(m)
#define PMIX_DISK_STATS_FREE(m, n) PMIXPP_STATS_FREE(m, n, pmixpp_disk_stats_destruct)
#define PMIX_DISK_STATS_RELEASE(m) PMIX_DISK_STATS_FREE((m), 1)

#define PMIX_NET_STATS_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_net_stats_t)
#define PMIX_NET_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_net_stats_t))
#define PMIX_NET_STATS_DESTRUCT(m) pmixpp_net_stats_destruct(m)
#define PMIX_NET_STATS_FREE(m, n) PMIXPP_STATS_FREE(m, n, pmixpp_net_stats_destruct)
#define PMIX_NET_STATS_RELEASE(m) PMIX_NET_STATS_FREE((m), 1)

#define PMIX_NODE_STATS_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_node_stats_t)
#define PMIX_NODE_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_node_stats_t))
#define PMIX_NODE_STATS_DESTRUCT(m) pmixpp_node_stats_destruct(m)
#define PMIX_NODE_STATS_FREE(m, n) PMIXPP_STATS_FREE(m, n, pmixpp_node_stats_destruct)
/* As in OpenPMIx 4.2: releases what m owns but not m itself */
#define PMIX_NODE_STATS_RELEASE(m) pmixpp_node_stats_destruct(m)

/* ---- values ---- */

#define PMIX_VALUE_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_value_t)
#define PMIX_VALUE_CONSTRUCT(m)                 \
    do {                                        \
        memset((m), 0, sizeof(pmix_value_t));   \
        (m)->type = PMIX_UNDEF;                 \
    } while (0)
#define PMIX_VALUE_DESTRUCT(m) PMIx_Value_destruct(m)
#define PMIX_VALUE_RELEASE(m)       \
    do {                            \
        PMIx_Value_destruct(m);     \
        free(m);                    \
        (m) = NULL;                 \
    } while (0)
#define PMIX_VALUE_FREE(m, n)               \
    do {                                    \
        pmixpp_value_free((m), (n));        \
        (m) = NULL;                         \
    } while (0)

/* n = the numeric value of m converted to type t; s = PMIX_ERR_BAD_PARAM
 * when m does not hold a number */
#define PMIX_VALUE_GET_NUMBER(s, m, n, t)                                                   \
    do {                                                                                    \
        (s) = PMIX_SUCCESS;                                                                 \
        switch ((m)->type) {                                                                \
        case PMIX_SIZE: (n) = PMIXPP_CAST(t, (m)->data.size); break;                        \
        case PMIX_INT: (n) = PMIXPP_CAST(t, (m)->data.integer); break;                      \
        case PMIX_INT8: (n) = PMIXPP_CAST(t, (m)->data.int8); break;                        \
        case PMIX_INT16: (n) = PMIXPP_CAST(t, (m)->data.int16); break;                      \
        case PMIX_INT32: (n) = PMIXPP_CAST(t, (m)->data.int32); break;                      \
        case PMIX_INT64: (n) = PMIXPP_CAST(t, (m)->data.int64); break;                      \
        case PMIX_UINT: (n) = PMIXPP_CAST(t, (m)->data.uint); break;                        \
        case PMIX_UINT8: (n) = PMIXPP_CAST(t, (m)->data.uint8); break;                      \
        case PMIX_UINT16: (n) = PMIXPP_CAST(t, (m)->data.uint16); break;                    \
        case PMIX_UINT32: (n) = PMIXPP_CAST(t, (m)->data.uint32); break;                    \
        case PMIX_UINT64: (n) = PMIXPP_CAST(t, (m)->data.uint64); break;                    \
        case PMIX_FLOAT: (n) = PMIXPP_CAST(t, (m)->data.fval); break;                       \
        case PMIX_DOUBLE: (n) = PMIXPP_CAST(t, (m)->data.dval); break;                      \
        case PMIX_PID: (n) = PMIXPP_CAST(t, (m)->data.pid); break;                          \
        case PMIX_PROC_RANK: (n) = PMIXPP_CAST(t, (m)->data.rank); break;                   \
        default: (s) = PMIX_ERR_BAD_PARAM; break;                                           \
        }                                                                                   \
    } while (0)

/* ---- info structures ---- */

#define PMIX_INFO_CONSTRUCT(m)                  \
    do {                                        \
        memset((m), 0, sizeof(pmix_info_t));    \
        (m)->value.type = PMIX_UNDEF;           \
    } while (0)
/* The last element of the array is flagged PMIX_INFO_ARRAY_END */
#define PMIX_INFO_CREATE(m, n) (m) = pmixpp_info_create(n)
#define PMIX_INFO_DESTRUCT(m) pmixpp_info_destruct(m)
#define PMIX_INFO_FREE(m, n)                \
    do {                                    \
        pmixpp_info_free((m), (n));         \
        (m) = NULL;                         \
    } while (0)

#define PMIX_INFO_REQUIRED(m) ((m)->flags |= PMIX_INFO_REQD)
#define PMIX_INFO_OPTIONAL(m) ((m)->flags &= ~PMIX_INFO_REQD)
#define PMIX_INFO_IS_REQUIRED(m) ((m)->flags & PMIX_INFO_REQD)
#define PMIX_INFO_IS_OPTIONAL(m) (!((m)->flags & PMIX_INFO_REQD))
#define PMIX_INFO_PROCESSED(m) ((m)->flags |= PMIX_INFO_REQD_PROCESSED)
#define PMIX_INFO_WAS_PROCESSED(m) ((m)->flags & PMIX_INFO_REQD_PROCESSED)
#define PMIX_INFO_SET_END(m) ((m)->flags |= PMIX_INFO_ARRAY_END)
#define PMIX_INFO_IS_END(m) ((m)->flags & PMIX_INFO_ARRAY_END)
#define PMIX_INFO_SET_QUALIFIER(i) ((i)->flags |= PMIX_INFO_QUALIFIER)
#define PMIX_INFO_IS_QUALIFIER(i) ((i)->flags & PMIX_INFO_QUALIFIER)
/* A persistent info does not own its value: DESTRUCT leaves it alone */
#define PMIX_INFO_SET_PERSISTENT(ii) ((ii)->flags |= PMIX_INFO_PERSISTENT)
#define PMIX_INFO_IS_PERSISTENT(ii) ((ii)->flags & PMIX_INFO_PERSISTENT)

/* a: pmix_value_t*. TRUE: the value reads as true; BOOL: it reads as a boolean */
#define PMIX_CHECK_TRUE(a) (PMIX_BOOL_TRUE == pmixpp_check_true(a))
#define PMIX_CHECK_BOOL(a) (PMIX_NON_BOOL != pmixpp_check_true(a))
#define PMIX_INFO_TRUE(m) (PMIX_BOOL_TRUE == pmixpp_check_true(&(m)->value))

/* ---- published data ---- */

#define PMIX_PDATA_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_pdata_t)
#define PMIX_PDATA_CONSTRUCT(m)                 \
    do {                                        \
        memset((m), 0, sizeof(pmix_pdata_t));   \
        (m)->value.type = PMIX_UNDEF;           \
    } while (0)
#define PMIX_PDATA_DESTRUCT(m) PMIx_Value_destruct(&(m)->value)
#define PMIX_PDATA_RELEASE(m)               \
    do {                                    \
        PMIx_Value_destruct(&(m)->value);   \
        free(m);                            \
        (m) = NULL;                         \
    } while (0)
#define PMIX_PDATA_FREE(m, n)               \
    do {                                    \
        pmixpp_pdata_free((m), (n));        \
        (m) = NULL;                         \
    } while (0)

/* ---- applications ---- */

#define PMIX_APP_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_app_t)
#define PMIX_APP_INFO_CREATE(m, n)                      \
    do {                                                \
        (m)->ninfo = (n);                               \
        (m)->info = pmixpp_info_create((m)->ninfo);     \
    } while (0)
#define PMIX_APP_CONSTRUCT(m) memset((m), 0, sizeof(pmix_app_t))
#define PMIX_APP_DESTRUCT(m) pmixpp_app_destruct(m)
#define PMIX_APP_RELEASE(m)             \
    do {                                \
        pmixpp_app_destruct(m);         \
        free(m);                        \
        (m) = NULL;                     \
    } while (0)
#define PMIX_APP_FREE(m, n)             \
    do {                                \
        pmixpp_app_free((m), (n));      \
        (m) = NULL;                     \
    } while (0)

/* ---- queries ---- */

#define PMIX_QUERY_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_query_t)
#define PMIX_QUERY_QUALIFIERS_CREATE(m, n)                      \
    do {                                                        \
        (m)->nqual = (n);                                       \
        (m)->qualifiers = pmixpp_info_create((m)->nqual);       \
    } while (0)
#define PMIX_QUERY_CONSTRUCT(m) memset((m), 0, sizeof(pmix_query_t))
#define PMIX_QUERY_DESTRUCT(m) pmixpp_query_destruct(m)
#define PMIX_QUERY_RELEASE(m)           \
    do {                                \
        pmixpp_query_destruct(m);       \
        free(m);                        \
        (m) = NULL;                     \
    } while (0)
#define PMIX_QUERY_FREE(m, n)           \
    do {                                \
        pmixpp_query_free((m), (n));    \
        (m) = NULL;                     \
    } while (0)

/* ---- registered attributes ---- */

#define PMIX_REGATTR_CONSTRUCT(a)               \
    do {                                        \
        if (NULL != (a)) {                      \
            pmixpp_regattr_construct(a);        \
        }                                       \
    } while (0)
/* n: name, k: key string, t: data type, v: one line of description */
#define PMIX_REGATTR_LOAD(a, n, k, t, v) pmixpp_regattr_load((a), (n), (k), (t), (v))
#define PMIX_REGATTR_DESTRUCT(a)                \
    do {                                        \
        if (NULL != (a)) {                      \
            pmixpp_regattr_destruct(a);         \
        }                                       \
    } while (0)
#define PMIX_REGATTR_CREATE(m, n) PMIXPP_CREATE(m, n, pmix_regattr_t)
#define PMIX_REGATTR_FREE(m, n)                                                 \
    do {                                                                        \
        pmixpp_regattr_free(PMIXPP_CAST(pmix_regattr_t *, (m)), (n));           \
        (m) = NULL;                                                             \
    } while (0)
#define PMIX_REGATTR_XFER(a, b) pmixpp_regattr_xfer((a), (b))

/* ---- fabrics ---- */

#define PMIX_FABRIC_CONSTRUCT(x) memset((x), 0, sizeof(pmix_fabric_t))

/* ---- data arrays ---- */

#define PMIX_DATA_ARRAY_INIT(m, t)  \
    do {                            \
        (m)->array = NULL;          \
        (m)->type = (t);            \
        (m)->size = 0;              \
    } while (0)
/* Zeroed storage for n elements of type t (none for an unknown type) */
#define PMIX_DATA_ARRAY_CONSTRUCT(m, n, t) pmixpp_data_array_construct((m), (n), (t))
#define PMIX_DATA_ARRAY_CREATE(m, n, t) (m) = pmixpp_data_array_create((n), (t))
#define PMIX_DATA_ARRAY_DESTRUCT(m) PMIx_Data_array_destruct(m)
#define PMIX_DATA_ARRAY_FREE(m)             \
    do {                                    \
        if (NULL != (m)) {                  \
            PMIx_Data_array_destruct(m);    \
            free(m);                        \
            (m) = NULL;                     \
        }                                   \
    } while (0)


#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_COMMON_H */
