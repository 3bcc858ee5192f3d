/*
 * pmix_tool.h - the PMIx tool API of pmixpp.
 *
 * Debuggers, monitors and launchers link libpmix as a tool: they find a
 * server through its rendezvous files (or are started by one), attach to
 * it, and then use the client API of pmix.h plus the calls below.
 * Signatures match OpenPMIx 4.2.2. Output forwarding (IOF) is declared here
 * too and is usable by clients as well.
 */
#ifndef PMIx_TOOL_API_H
#define PMIx_TOOL_API_H

#include <pmix.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ---- Life cycle and server connections -------------------------------- */

/* Initializes the library as a tool and, unless told otherwise by info,
 * connects to a server. *proc receives the tool's identity. */
PMIX_EXPORT pmix_status_t PMIx_tool_init(pmix_proc_t *proc,
                                         pmix_info_t info[], size_t ninfo);

PMIX_EXPORT pmix_status_t PMIx_tool_finalize(void);

/* Connects to one more server (chosen through info); *server receives its
 * identity and *myproc the tool's identity if it had none yet. */
PMIX_EXPORT pmix_status_t PMIx_tool_attach_to_server(pmix_proc_t *myproc, pmix_proc_t *server,
                                                     pmix_info_t info[], size_t ninfo);

PMIX_EXPORT pmix_status_t PMIx_tool_disconnect(const pmix_proc_t *server);

/* Malloc'ed array of the servers the tool is attached to. */
PMIX_EXPORT pmix_status_t PMIx_tool_get_servers(pmix_proc_t *servers[], size_t *nservers);

/* Makes server the target of subsequent requests. */
PMIX_EXPORT pmix_status_t PMIx_tool_set_server(const pmix_proc_t *server,
                                               pmix_info_t info[], size_t ninfo);

/* ---- Forwarded input/output (IOF) ------------------------------------- */

/* Receives forwarded output: payload from source on channel. The library
 * owns every argument and reclaims it when the handler returns. */
typedef void (*pmix_iof_cbfunc_t)(size_t iofhdlr, pmix_iof_channel_t channel,
                                  pmix_proc_t *source, pmix_byte_object_t *payload,
                                  pmix_info_t info[], size_t ninfo);

/* Asks for the given channels of procs to be sent to cbfunc. The handler's
 * reference comes back through regcbfunc, or as a non-negative return
 * value when regcbfunc is NULL. */
PMIX_EXPORT pmix_status_t PMIx_IOF_pull(const pmix_proc_t procs[], size_t nprocs,
                                        const pmix_info_t directives[], size_t ndirs,
                                        pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc,
                                        pmix_hdlr_reg_cbfunc_t regcbfunc, void *regcbdata);

PMIX_EXPORT pmix_status_t PMIx_IOF_deregister(size_t iofhdlr,
                                              const pmix_info_t directives[], size_t ndirs,
                                              pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Sends bo to the stdin of targets; bo == NULL with PMIX_IOF_COMPLETE
 * closes their stdin. */
PMIX_EXPORT pmix_status_t PMIx_IOF_push(const pmix_proc_t targets[], size_t ntargets,
                                        pmix_byte_object_t *bo,
                                        const pmix_info_t directives[], size_t ndirs,
                                        pmix_op_cbfunc_t cbfunc, void *cbdata);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_TOOL_API_H */
