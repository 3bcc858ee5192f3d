// src/common/regex/regex.h
//
// Compact, printable encodings of the node map (PMIX_NODE_MAP) and the
// process map (PMIX_PROC_MAP) handed to PMIx_server_register_nspace, and their
// parsers. Full grammar with examples: docs/regex.md.
//
// Both encodings start with the format tag "pmixpp1:" (format name + version)
// and are plain NUL-terminated printable ASCII, so a host may pass them as
// PMIX_STRING or PMIX_REGEX (a byte object whose size counts the NUL).
//
// Node map:   "pmixpp1:" item ("," item)*
//   item     := text                      one literal name
//             | text "[" elems "]" text   <text><number><text> for each number
//   elems    := elem ("," elem)*
//   elem     := NUM | NUM "-" NUM         ascending run, step 1
//   text     := ( [A-Za-z0-9._-] | "%" HEX HEX )*   other bytes are %-escaped
//   Each number is zero-padded to the length of the elem's first NUM as
//   written ("n[0098-0100]" -> n0098 n0099 n0100; "n[9-10]" -> n9 n10).
//
// Proc map:   "pmixpp1:" node (";" node)*
//   node     := runs [ "*" COUNT [ ("+" | "-") DELTA ] ]
//               COUNT consecutive nodes; node k (from 0) holds runs + k*DELTA
//   runs     := run ("," run)*
//   run      := NUM | NUM "-" NUM [ "/" STRIDE ]   ascending progression
//   e.g. 10,000 nodes x 16 ranks in block order: "pmixpp1:0-15*10000+16".
//
// Parsers also accept the plain lists OpenPMIx hosts send: "n1,n2,n3" and
// "0,1,2;3-5;6" (optionally after "raw:"), and ignore trailing NULs (a
// PMIX_REGEX byte object counts its terminator). Names never hold control
// characters or ','. Expansions are bounded (kMaxNames names or nodes, 256 MiB
// of name bytes, kMaxRanks ranks) before anything is expanded; malformed or
// oversized input is refused with PMIX_ERR_BAD_PARAM and one logged line.
// Outputs are set only on success. Thread-safe: no shared state.
#pragma once

#include <pmix_common.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::regex {

// Format tag every generated map starts with.
inline constexpr std::string_view kFormatTag = "pmixpp1:";
// Refuse maps that would expand to more node names / nodes than this
// (1,048,576: several times the largest machine). Every node costs its own
// std::string or std::vector on top of its bytes, so this bound, not the
// byte bounds, is what keeps a 20-byte map from expanding to gigabytes.
inline constexpr std::size_t kMaxNames = std::size_t{1} << 20;
// Refuse proc maps that would expand to more ranks than this.
inline constexpr std::size_t kMaxRanks = std::size_t{1} << 26;

// Node list -> compact printable regex (what PMIx_generate_regex returns).
pmix_status_t generate_node_regex(std::string_view comma_separated_nodes, std::string *regex_p);
// Per-node rank lists "0,1,2;3,4,5" -> compact printable regex (PMIx_generate_ppn).
pmix_status_t generate_ppn_regex(std::string_view semicolon_separated_ranks, std::string *regex_p);
// Either our regex or a plain comma-separated list (hosts may pass raw lists) -> names in order.
pmix_status_t parse_node_map(std::string_view map, std::vector<std::string> *nodes_p);
// Either our ppn regex or a plain "0,1;2,3" list -> ranks per node, in node order.
pmix_status_t parse_proc_map(std::string_view map, std::vector<std::vector<pmix_rank_t>> *ranks_p);

}  // namespace pmixpp::regex
