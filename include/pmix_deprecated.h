/*
 * pmixpp: interfaces the PMIx standard has retired or moved, kept so that
 * older programs still compile, plus the value/info functions that the macros
 * of pmix_common.h call. Included by pmix_common.h; do not include it directly.
 *
 * Blocks between @generated-begin and @generated-end markers are rewritten by
 * cmake/abi/gen_header_constants.py from tests/abi/data/.
 */
#ifndef PMIx_DEPRECATED_H
#define PMIx_DEPRECATED_H

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ======================================================================== */
/* Functions                                                                */
/* ======================================================================== */

/* Retired: connect a tool to a different server (use PMIx_tool_set_server) */
PMIX_EXPORT pmix_status_t PMIx_tool_connect_to_server(pmix_proc_t *proc,
                                                      pmix_info_t info[], size_t ninfo);

/* Values */
PMIX_EXPORT pmix_status_t PMIx_Value_load(pmix_value_t *val,
                                          const void *data,
                                          pmix_data_type_t type);
PMIX_EXPORT pmix_status_t PMIx_Value_unload(pmix_value_t *val,
                                            void **data,
                                            size_t *sz);
PMIX_EXPORT void PMIx_Value_destruct(pmix_value_t *val);
PMIX_EXPORT pmix_status_t PMIx_Value_xfer(pmix_value_t *dest,
                                          const pmix_value_t *src);
PMIX_EXPORT pmix_value_cmp_t PMIx_Value_compare(pmix_value_t *v1,
                                                pmix_value_t *v2);
PMIX_EXPORT void PMIx_Data_array_destruct(pmix_data_array_t *d);

/* Info structures */
PMIX_EXPORT pmix_status_t PMIx_Info_load(pmix_info_t *info,
                                         const char *key,
                                         const void *data,
                                         pmix_data_type_t type);
PMIX_EXPORT pmix_status_t PMIx_Info_xfer(pmix_info_t *dest,
                                         const pmix_info_t *src);

/* Info lists: grow a list of info entries, then convert it into an array */
PMIX_EXPORT void* PMIx_Info_list_start(void);
PMIX_EXPORT pmix_status_t PMIx_Info_list_add(void *ptr,
                                             const char *key,
                                             const void *value,
                                             pmix_data_type_t type);
PMIX_EXPORT pmix_status_t PMIx_Info_list_insert(void *ptr, pmix_info_t *info);
PMIX_EXPORT pmix_status_t PMIx_Info_list_xfer(void *ptr,
                                              const pmix_info_t *info);
PMIX_EXPORT pmix_status_t PMIx_Info_list_convert(void *ptr, pmix_data_array_t *par);
PMIX_EXPORT void PMIx_Info_list_release(void *ptr);

/* ======================================================================== */
/* Retired constants                                                        */
/* ======================================================================== */

/* @generated-begin numbers */
/* Retired data types */
#define PMIX_BUFFER                              26

/* Retired status and event codes */
#define PMIX_ERR_SILENT                          (-2)
#define PMIX_ERR_DEBUGGER_RELEASE                (-3)
#define PMIX_ERR_PROC_ABORTED                    (-7)
#define PMIX_ERR_PROC_ABORTING                   (-9)
#define PMIX_ERR_SERVER_FAILED_REQUEST           (-10)
#define PMIX_EXISTS                              (-11)
#define PMIX_ERR_HANDSHAKE_FAILED                (-13)
#define PMIX_ERR_READY_FOR_HANDSHAKE             (-14)
#define PMIX_ERR_PROC_ENTRY_NOT_FOUND            (-17)
#define PMIX_ERR_PACK_MISMATCH                   (-22)
#define PMIX_ERR_IN_ERRNO                        (-26)
#define PMIX_ERR_DATA_VALUE_NOT_FOUND            (-30)
#define PMIX_ERR_INVALID_ARG                     (-33)
#define PMIX_ERR_INVALID_KEY                     (-34)
#define PMIX_ERR_INVALID_KEY_LENGTH              (-35)
#define PMIX_ERR_INVALID_VAL                     (-36)
#define PMIX_ERR_INVALID_VAL_LENGTH              (-37)
#define PMIX_ERR_INVALID_LENGTH                  (-38)
#define PMIX_ERR_INVALID_NUM_ARGS                (-39)
#define PMIX_ERR_INVALID_ARGS                    (-40)
#define PMIX_ERR_INVALID_NUM_PARSED              (-41)
#define PMIX_ERR_INVALID_KEYVALP                 (-42)
#define PMIX_ERR_INVALID_SIZE                    (-43)
#define PMIX_ERR_INVALID_NAMESPACE               (-44)
#define PMIX_ERR_SERVER_NOT_AVAIL                (-45)
#define PMIX_ERR_NOT_IMPLEMENTED                 (-48)
#define PMIX_DEBUG_WAITING_FOR_NOTIFY            (-58)
#define PMIX_ERR_FATAL                           (-63)
#define PMIX_ERR_NOT_AVAILABLE                   (-64)
#define PMIX_ERR_VALUE_OUT_OF_BOUNDS             (-65)
#define PMIX_ERR_FILE_OPEN_FAILURE               (-67)
#define PMIX_ERR_FILE_READ_FAILURE               (-68)
#define PMIX_ERR_FILE_WRITE_FAILURE              (-69)
#define PMIX_ERR_SYS_LIMITS_PIPES                (-70)
#define PMIX_ERR_SYS_LIMITS_CHILDREN             (-71)
#define PMIX_ERR_PIPE_SETUP_FAILURE              (-72)
#define PMIX_ERR_EXE_NOT_ACCESSIBLE              (-73)
#define PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE         (-74)
#define PMIX_ERR_SYS_LIMITS_FILES                (-75)
#define PMIX_ERR_LOST_CONNECTION_TO_SERVER       (-101)
#define PMIX_ERR_LOST_PEER_CONNECTION            (-102)
#define PMIX_ERR_LOST_CONNECTION_TO_CLIENT       (-103)
#define PMIX_NOTIFY_ALLOC_COMPLETE               (-105)
#define PMIX_ERR_INVALID_TERMINATION             (-112)
#define PMIX_ERR_JOB_TERMINATED                  (-145)
#define PMIX_ERR_UPDATE_ENDPOINTS                (-146)
#define PMIX_GDS_ACTION_COMPLETE                 (-148)
#define PMIX_PROC_HAS_CONNECTED                  (-149)
#define PMIX_CONNECT_REQUESTED                   (-150)
#define PMIX_ERR_NODE_DOWN                       (-231)
#define PMIX_ERR_NODE_OFFLINE                    (-232)
#define PMIX_ERR_SYS_BASE                        (-230)
#define PMIX_ERR_SYS_OTHER                       (-330)

/* Retired job states */
#define PMIX_JOB_STATE_PREPPED                   1
/* @generated-end numbers */

/* ======================================================================== */
/* Retired attribute keys                                                   */
/* ======================================================================== */

/* @generated-begin attributes */
/* Retired initialization attributes */
#define PMIX_EVENT_BASE                          "pmix.evbase"                   /* struct event_base * */
#define PMIX_TOPOLOGY                            "pmix.topo"                     /* hwloc_topology_t */
#define PMIX_DEBUG_JOB                           "pmix.dbg.job"                  /* char* */
#define PMIX_RECONNECT_SERVER                    "pmix.cnct.recon"               /* bool */

/* Retired rendezvous options */
#define PMIX_USOCK_DISABLE                       "pmix.usock.disable"            /* bool */
#define PMIX_SOCKET_MODE                         "pmix.sockmode"                 /* uint32_t */
#define PMIX_SINGLE_LISTENER                     "pmix.sing.listnr"              /* bool */

/* Retired fabric allocation attributes */
#define PMIX_ALLOC_NETWORK                       "pmix.alloc.net"                /* pmix_data_array_t* */
#define PMIX_ALLOC_NETWORK_ID                    "pmix.alloc.netid"              /* char* */
#define PMIX_ALLOC_NETWORK_QOS                   "pmix.alloc.netqos"             /* char* */
#define PMIX_ALLOC_NETWORK_TYPE                  "pmix.alloc.nettype"            /* char* */
#define PMIX_ALLOC_NETWORK_PLANE                 "pmix.alloc.netplane"           /* char* */
#define PMIX_ALLOC_NETWORK_ENDPTS                "pmix.alloc.endpts"             /* size_t */
#define PMIX_ALLOC_NETWORK_ENDPTS_NODE           "pmix.alloc.endpts.nd"          /* size_t */
#define PMIX_ALLOC_NETWORK_SEC_KEY               "pmix.alloc.nsec"               /* pmix_byte_object_t */

/* Retired job data attributes */
#define PMIX_PROC_DATA                           "pmix.pdata"                    /* pmix_data_array_t* */
#define PMIX_LOCALITY                            "pmix.loc"                      /* uint16_t */

/* Retired topology attributes */
#define PMIX_LOCAL_TOPO                          "pmix.ltopo"                    /* char* */
#define PMIX_TOPOLOGY_XML                        "pmix.topo.xml"                 /* char* */
#define PMIX_TOPOLOGY_FILE                       "pmix.topo.file"                /* char* */
#define PMIX_TOPOLOGY_SIGNATURE                  "pmix.toposig"                  /* char* */
#define PMIX_HWLOC_SHMEM_ADDR                    "pmix.hwlocaddr"                /* size_t */
#define PMIX_HWLOC_SHMEM_SIZE                    "pmix.hwlocsize"                /* size_t */
#define PMIX_HWLOC_SHMEM_FILE                    "pmix.hwlocfile"                /* char* */
#define PMIX_HWLOC_XML_V1                        "pmix.hwlocxml1"                /* char* */
#define PMIX_HWLOC_XML_V2                        "pmix.hwlocxml2"                /* char* */
#define PMIX_HWLOC_SHARE_TOPO                    "pmix.hwlocsh"                  /* bool */
#define PMIX_HWLOC_HOLE_KIND                     "pmix.hwlocholek"               /* char* */

/* Retired internal attributes */
#define PMIX_DSTPATH                             "pmix.dstpath"                  /* char* */
#define PMIX_COLLECTIVE_ALGO                     "pmix.calgo"                    /* char* */
#define PMIX_COLLECTIVE_ALGO_REQD                "pmix.calreqd"                  /* bool */
#define PMIX_PROC_BLOB                           "pmix.pblob"                    /* pmix_byte_object_t */
#define PMIX_MAP_BLOB                            "pmix.mblob"                    /* pmix_byte_object_t */
#define PMIX_MAPPER                              "pmix.mapper"                   /* char* */
#define PMIX_NON_PMI                             "pmix.nonpmi"                   /* bool */
#define PMIX_PROC_URI                            "pmix.puri"                     /* char* */
#define PMIX_ARCH                                "pmix.arch"                     /* uint32_t */

/* Retired debugger and event attributes */
#define PMIX_DEBUG_JOB_DIRECTIVES                "pmix.dbg.jdirs"                /* pmix_data_array_t* */
#define PMIX_DEBUG_APP_DIRECTIVES                "pmix.dbg.adirs"                /* pmix_data_array_t* */
#define PMIX_EVENT_NO_TERMINATION                "pmix.evnoterm"                 /* bool */
#define PMIX_EVENT_WANT_TERMINATION              "pmix.evterm"                   /* bool */

/* Retired output attributes */
#define PMIX_TAG_OUTPUT                          "pmix.tagout"                   /* bool */
#define PMIX_TIMESTAMP_OUTPUT                    "pmix.tsout"                    /* bool */
#define PMIX_MERGE_STDERR_STDOUT                 "pmix.mergeerrout"              /* bool */
#define PMIX_OUTPUT_TO_FILE                      "pmix.outfile"                  /* char* */
#define PMIX_OUTPUT_TO_DIRECTORY                 "pmix.outdir"                   /* char* */
#define PMIX_OUTPUT_NOCOPY                       "pmix.nocopy"                   /* bool */

/* Retired module selection attributes */
#define PMIX_GDS_MODULE                          "pmix.gds.mod"                  /* char* */
#define PMIX_BFROPS_MODULE                       "pmix.bfrops.mod"               /* char* */
#define PMIX_PNET_SETUP_APP                      "pmix.pnet.setapp"              /* pmix_byte_object_t */

/* Retired I/O and launch attributes */
#define PMIX_IOF_STOP                            "pmix.iof.stop"                 /* bool */
#define PMIX_NOTIFY_LAUNCH                       "pmix.note.lnch"                /* bool */
/* @generated-end attributes */

/* ======================================================================== */
/* Macros over the functions above (kept here, as in OpenPMIx 4.2)          */
/* ======================================================================== */

#define PMIX_VALUE_LOAD(v, d, t) PMIx_Value_load((v), (d), (t))
#define PMIX_VALUE_UNLOAD(r, k, d, s) (r) = PMIx_Value_unload((k), (d), (s))
/* Allocates v first when it is NULL */
#define PMIX_VALUE_XFER(r, v, s)                                                \
    do {                                                                        \
        if (NULL == (v)) {                                                      \
            (v) = PMIXPP_CAST(pmix_value_t *, malloc(sizeof(pmix_value_t)));    \
        }                                                                       \
        (r) = (NULL == (v)) ? PMIX_ERR_NOMEM : PMIx_Value_xfer((v), (s));       \
    } while (0)
#define PMIX_VALUE_XFER_DIRECT(r, v, s) (r) = PMIx_Value_xfer((v), (s))

#define PMIX_INFO_LOAD(i, k, d, t) (void)PMIx_Info_load((i), (k), (d), (t))
#define PMIX_INFO_XFER(d, s) (void)PMIx_Info_xfer((d), (s))

/* m: pmix_pdata_t*, p: pmix_proc_t* of the publisher, k: key, v/t: value */
#define PMIX_PDATA_LOAD(m, p, k, v, t)                              \
    do {                                                            \
        if (NULL != (m)) {                                          \
            memset((m), 0, sizeof(pmix_pdata_t));                   \
            PMIX_LOAD_NSPACE((m)->proc.nspace, (p)->nspace);        \
            (m)->proc.rank = (p)->rank;                             \
            PMIX_LOAD_KEY((m)->key, (k));                           \
            (void)PMIx_Value_load(&((m)->value), (v), (t));         \
        }                                                           \
    } while (0)
#define PMIX_PDATA_XFER(d, s)                                       \
    do {                                                            \
        if (NULL != (d)) {                                          \
            memset((d), 0, sizeof(pmix_pdata_t));                   \
            PMIX_LOAD_NSPACE((d)->proc.nspace, (s)->proc.nspace);   \
            (d)->proc.rank = (s)->proc.rank;                        \
            PMIX_LOAD_KEY((d)->key, (s)->key);                      \
            (void)PMIx_Value_xfer(&((d)->value), &((s)->value));    \
        }                                                           \
    } while (0)

#define PMIX_INFO_LIST_START(p) (p) = PMIx_Info_list_start()
#define PMIX_INFO_LIST_ADD(r, p, a, v, t) (r) = PMIx_Info_list_add((p), (a), (v), (t))
#define PMIX_INFO_LIST_INSERT(r, p, i) (r) = PMIx_Info_list_insert((p), (i))
#define PMIX_INFO_LIST_XFER(r, p, a) (r) = PMIx_Info_list_xfer((p), (a))
#define PMIX_INFO_LIST_CONVERT(r, p, m) (r) = PMIx_Info_list_convert((p), (m))
#define PMIX_INFO_LIST_RELEASE(p) PMIx_Info_list_release((p))

#define PMIX_TOPOLOGY_DESTRUCT(x) PMIx_Topology_destruct(x)


#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_DEPRECATED_H */
