/*
 * formats.h - fabrics and table sets as files.
 *
 * Reading and writing fabrics as ibsim net files.
 *
 * The reader takes everything ibsim's own parser takes: Switch, Ca/Hca and
 * Rt records, optional remote port numbers (default 1), port aliases
 * (@[N] "alias"), switchguid/caguid/rtguid bases (absolute "=" or relative
 * "+") that set node GUIDs exactly as ibsim does, width/speed defaults and
 * per-port w=/s= options, module prefixes and include files. Because ibsim
 * reads ibnetdiscover's output, so does this reader: it also keeps the LIDs,
 * LMC and port GUIDs such output carries. Unlike ibsim it refuses, with
 * FILE:LINE, what ibsim would silently ignore or misread.
 *
 * Table sets as files: OpenSM's own dump formats, our
 * path-SL format, and whole directories of them.
 *
 * OpenSM formats, written byte for byte as OpenSM 3.3 writes them (on a
 * little-endian host, where OpenSM lists switches and ports in the order of
 * their byte-swapped GUIDs) and read strictly, every complaint naming
 * FILE:LINE:
 *   opensm-lfts.dump   every switch's LFT; what "opensm -R file -U" loads;
 *   opensm-sl2vl.dump  the SL2VL table of every switch and endpoint port;
 *   guid2lid           OpenSM's LID cache: first and last LID per port GUID;
 *   opensm-subnet.lst  the discovered links (read only): a fabric.
 * Ours:
 *   vlroute-path-sl.dump  the path SL of every (source port, DLID), rows of
 *                         SLs shared by sources; see vlroute-pathsl(5);
 *   vlroute-valiant.dump  the route kind and intermediate switch of every
 *                         LID, and the VL policy; see vlroute-valiant(5).
 *
 * From infiniband-diags (read only):
 *   dump_fts.out, ibroute.out  every switch's LFT as dump_fts prints it, or
 *                              as ibroute prints it, switch after switch;
 *                              see vlroute-diags(5).
 *
 * Compact (vlroute-tables(5)), what the text dumps above hold in a plain
 * binary layout of rows written raw or as runs, hundreds of times
 * smaller; what vlroute route writes unless asked for the text:
 *   vlroute-lfts.bin      the LFTs of opensm-lfts.dump;
 *   vlroute-sl2vl.bin     the SL2VL tables of opensm-sl2vl.dump;
 *   vlroute-path-sl.bin   the path SLs of vlroute-path-sl.dump.
 *
 * Ports are named by GUID in all of them: a switch by its node GUID (the
 * GUID of its port 0), an endpoint port by its port GUID.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_FORMATS_H
#define VLROUTE_FORMATS_H

#include <stdio.h>

#include <vlroute/fabric.h>
#include <vlroute/tables.h>

/* What the reader accepted but could not apply. */
struct vlr_netfile_notes {
	unsigned ignored_commands;	/* ibsim console commands ("do ...") */
	char first_ignored[256];	/* "FILE:LINE" of the first one */
};

/* Read a net file into an empty fabric. notes may be NULL. */
int vlr_netfile_read(struct vlr_fabric *fabric, const char *path,
		     struct vlr_netfile_notes *notes, struct vlr_error *err);

/*
 * Write the fabric in ibsim's net format, switches first, with explicit
 * GUID bases so that ibsim presents exactly the fabric's GUIDs. Each line
 * of header (may be NULL) becomes a "# " comment at the top.
 */
int vlr_netfile_write(const struct vlr_fabric *fabric, FILE *out,
		      const char *header, struct vlr_error *err);

/* The -N, -S, -P and -L values ibsim needs to load and route this fabric. */
struct vlr_ibsim_sizes {
	unsigned nodes;
	unsigned switches;
	unsigned ports;
	unsigned linear_cap;	/* LFT size: highest LID + 1 at the fabric's LMC */
};

void vlr_ibsim_sizes(const struct vlr_fabric *fabric, struct vlr_ibsim_sizes *sizes);

/* Does the fabric need any of ibsim's size flags? */
int vlr_ibsim_needs_flags(const struct vlr_ibsim_sizes *sizes);

/* "-N 6132 -S 876 -P 26280", only the flags needed ("" when none). */
void vlr_ibsim_flags(const struct vlr_ibsim_sizes *sizes, char *buf, size_t size);

/* ibsim 0.10's built-in limits. */
#define VLR_IBSIM_DEFAULT_NODES 2048
#define VLR_IBSIM_DEFAULT_SWITCHES 256
#define VLR_IBSIM_DEFAULT_PORTS 13312
#define VLR_IBSIM_DEFAULT_LINEAR_CAP 30720

/* The files of a table directory. */
#define VLR_FILE_FABRIC "fabric.net"
#define VLR_FILE_GUID2LID "guid2lid"
#define VLR_FILE_LFTS "opensm-lfts.dump"
#define VLR_FILE_SL2VL "opensm-sl2vl.dump"
#define VLR_FILE_PATH_SL "vlroute-path-sl.dump"
#define VLR_FILE_VALIANT "vlroute-valiant.dump"
#define VLR_FILE_SUBNET_LST "opensm-subnet.lst"
#define VLR_FILE_ROUTE_INFO "vlroute-route.info"
#define VLR_FILE_PROVENANCE "vlroute-provenance.json"
#define VLR_FILE_LFTS_COMPACT "vlroute-lfts.bin"
#define VLR_FILE_SL2VL_COMPACT "vlroute-sl2vl.bin"
#define VLR_FILE_PATH_SL_COMPACT "vlroute-path-sl.bin"
#define VLR_FILE_DUMP_FTS "dump_fts.out"
#define VLR_FILE_IBROUTE "ibroute.out"

/*
 * opensm-lfts.dump. The writer skips the entries OpenSM skips (VLR_NO_PORT
 * and any port beyond the switch's). The reader resets the LFT of every
 * switch it finds a block for to VLR_NO_PORT, then fills it; it refuses
 * unknown switch GUIDs, a switch listed twice, LIDs outside 1..max_lid,
 * ports beyond the switch's, a "portguid" that does not own the LID in
 * these tables, and anything it cannot parse.
 */
int vlr_lfts_write(const struct vlr_tables *tables, FILE *out, struct vlr_error *err);
int vlr_lfts_read(struct vlr_tables *tables, const char *path, struct vlr_error *err);

/*
 * The LFT dumps of infiniband-diags: dump_fts's output, or ibroute's for
 * each switch one after the other (the two print the same blocks). Each
 * "Unicast lids [0xA-0xB] of switch ... guid 0xGUID (NAME):" block, with its
 * column headings, "0xLID PORT : (INFO)" lines (or bare "0xLID PORT" with
 * -n) and "N [valid ]lids dumped" line, sets that switch's LFT as
 * vlr_lfts_read does; entries with a port beyond the switch's ("illegal
 * port" with -a) and LID 0 are no route. Multicast blocks ("Multicast
 * mlids", from -M) are skipped whole. Refused with FILE:LINE: unknown or
 * repeated switch GUIDs, a "Lid L" header that disagrees with the
 * switch's LID, LIDs outside the header's range or beyond the tables'
 * highest LID that are routed, a LID listed twice, a portguid that does not
 * own the LID in these tables, a count that is not the block's line count,
 * a block without its count line, and any line it does not know.
 */
int vlr_diags_lfts_read(struct vlr_tables *tables, const char *path,
			struct vlr_error *err);

/*
 * Set the LMC of every LID-owning port (switch port 0, linked endpoint
 * port) of a fabric whose base LIDs are known, from the number of
 * consecutive LIDs the LFT dump at path attributes to its GUID. Reads
 * switch blocks only until every port's LIDs are clear (for OpenSM's
 * dumps, two blocks); ports no block routes keep their LMC.
 */
int vlr_lfts_infer_lmc(struct vlr_fabric *fabric, const char *path,
		       struct vlr_error *err);

/*
 * opensm-sl2vl.dump. The writer lists, as OpenSM, every switch (rows for
 * every linked out port and every in port 0..N) and every linked endpoint
 * port (one row). The reader sets the rows it finds and leaves the others.
 */
int vlr_sl2vl_write(const struct vlr_tables *tables, FILE *out, struct vlr_error *err);
int vlr_sl2vl_read(struct vlr_tables *tables, const char *path, struct vlr_error *err);

/*
 * vlroute-path-sl.dump. The writer lists the source ports (linked CA and
 * router ports) that have an SL row. The reader replaces all SL rows and
 * every port's row choice; ports it does not list use SL 0.
 */
int vlr_pathsl_write(const struct vlr_tables *tables, FILE *out, struct vlr_error *err);
int vlr_pathsl_read(struct vlr_tables *tables, const char *path, struct vlr_error *err);

/*
 * vlroute-valiant.dump, for tables that carry route kinds (lid_kind). The
 * writer gives the policy and every LID that has an owner; it refuses
 * tables without lid_kind or lid_via, a policy the reader would refuse,
 * a minimal LID with an intermediate and a valiant or restricted one
 * without. The reader replaces lid_kind, lid_via and policy, all or
 * nothing; LIDs it does not list are minimal. It refuses a missing,
 * repeated or malformed policy line, unknown route kinds, LIDs without an
 * owner or listed twice, intermediates that are not the node GUID of a
 * switch, and a minimal LID with an intermediate or another without one.
 */
int vlr_valiant_write(const struct vlr_tables *tables, FILE *out, struct vlr_error *err);
int vlr_valiant_read(struct vlr_tables *tables, const char *path, struct vlr_error *err);

/*
 * The compact forms of the three dumps above (vlroute-tables(5)): the
 * same tables, and each reader refuses, naming the file and the byte
 * offset, what its text reader refuses - an unknown GUID, a switch or port
 * given twice, another LID, a port beyond the switch's, a LID owned by
 * another port than in the tables - and a file of another kind or
 * version, other LIDs than the tables', a truncated file and bytes after
 * its last record. Each is written and read as a stream, one row at a
 * time.
 */
int vlr_lfts_compact_write(const struct vlr_tables *tables, FILE *out,
			   struct vlr_error *err);
int vlr_lfts_compact_read(struct vlr_tables *tables, const char *path,
			  struct vlr_error *err);
int vlr_sl2vl_compact_write(const struct vlr_tables *tables, FILE *out,
			    struct vlr_error *err);
int vlr_sl2vl_compact_read(struct vlr_tables *tables, const char *path,
			   struct vlr_error *err);
int vlr_pathsl_compact_write(const struct vlr_tables *tables, FILE *out,
			     struct vlr_error *err);
int vlr_pathsl_compact_read(struct vlr_tables *tables, const char *path,
			    struct vlr_error *err);

/* What the guid2lid reader skipped. */
struct vlr_guid2lid_notes {
	unsigned entries;		/* entries read */
	unsigned unknown;		/* for GUIDs not in the fabric (OpenSM keeps
					   ports that left; so do we, by skipping) */
	char first_unknown[256];	/* "FILE:LINE" of the first one */
};

/*
 * guid2lid. The writer lists every switch port 0 and linked endpoint port
 * that has a LID. The reader sets lid and lmc of each port it names; ports
 * it does not name keep theirs. notes may be NULL.
 */
int vlr_guid2lid_write(const struct vlr_fabric *fabric, FILE *out,
		       struct vlr_error *err);
int vlr_guid2lid_read(struct vlr_fabric *fabric, const char *path,
		      struct vlr_guid2lid_notes *notes, struct vlr_error *err);

/*
 * opensm-subnet.lst into an empty fabric: nodes by NodeGUID, named by their
 * NodeDescription when it is unique in the file and a valid node id, else
 * "S-<guid>" (switches) or "H-<guid>" (others); LIDs of switch port 0 and
 * of endpoint ports with LMC 0.
 */
int vlr_subnet_lst_read(struct vlr_fabric *fabric, const char *path,
			struct vlr_error *err);

/* What vlr_tables_read_dir found. */
struct vlr_tables_dir_notes {
	char topology[4096];		/* the file the fabric came from */
	int has_guid2lid;		/* LIDs came from DIR/guid2lid */
	int lmc_inferred;		/* LMCs came from the LFT dump */
	int has_sl2vl;			/* an SL2VL file was read */
	int has_path_sl;		/* a path-SL file was read */
	int has_valiant;		/* DIR/vlroute-valiant.dump was read */
	const char *lfts;		/* the LFT file read: VLR_FILE_LFTS,
					   VLR_FILE_LFTS_COMPACT, VLR_FILE_DUMP_FTS
					   or VLR_FILE_IBROUTE */
	const char *sl2vl;		/* the SL2VL file read, or NULL */
	const char *path_sl;		/* the path-SL file read, or NULL */
	struct vlr_guid2lid_notes guid2lid;
};

/* One of the writers above (or any with their signature). */
typedef int (*vlr_tables_writer)(const struct vlr_tables *tables, FILE *out,
				 struct vlr_error *err);

/*
 * Write path whole with writer (vlr_whole_file): into a temporary file
 * beside it, synced and renamed into place only once complete, so a
 * reader never sees half a file and a failure leaves the previous file
 * (or none).
 */
int vlr_tables_write_file(const struct vlr_tables *tables, const char *path,
			  vlr_tables_writer writer, struct vlr_error *err);

/*
 * The form of a table directory's LFTs, SL2VL and path SLs: the compact
 * files, or the text dumps (opensm-lfts.dump and opensm-sl2vl.dump, which
 * OpenSM reads, and vlroute-path-sl.dump).
 */
enum vlr_tables_form {
	VLR_TABLES_COMPACT = 0,
	VLR_TABLES_TEXT,
};

/*
 * Write a table directory whole (vlr_whole_dir): fabric.net, guid2lid,
 * the LFTs, the SL2VL tables and the path SLs in the form asked for (the
 * compact vlroute-lfts.bin, vlroute-sl2vl.bin and vlroute-path-sl.bin, or
 * the text opensm-lfts.dump, opensm-sl2vl.dump and vlroute-path-sl.dump)
 * and, for tables with route kinds (lid_kind), vlroute-valiant.dump go
 * into a sibling temporary directory that replaces dir in one step once
 * complete. Tables marked unprogrammable get no SL2VL and no path-SL
 * file, which they do not have, but a vlroute-route.info with the mark.
 * A failure, a kill or a full disk leaves the previous dir (or none),
 * never a mix; a second writer of dir is refused while one writes;
 * an existing dir holding other files than these, vlroute-route.info and
 * vlroute-provenance.json is refused, not replaced.
 */
int vlr_tables_write_dir(const struct vlr_tables *tables, const char *dir,
			 enum vlr_tables_form form, struct vlr_error *err);

/*
 * vlr_tables_write_dir in steps, for a caller that adds files of its own
 * (vlroute-route.info) or takes the lock before the tables are made:
 * vlr_tables_dir_open, then vlr_tables_write_files (and the caller's
 * files) into dir->temporary, then vlr_whole_dir_close.
 */
int vlr_tables_dir_open(struct vlr_whole_dir *dir, const char *path,
			struct vlr_error *err);
int vlr_tables_write_files(const struct vlr_tables *tables, const char *dir,
			   enum vlr_tables_form form, struct vlr_error *err);

/*
 * Convert the table directory dir, written by vlr_tables_write_dir in
 * either form, into the other form (or the same) in into, an empty
 * directory (a vlr_tables_dir_open's temporary): its LFTs, SL2VL and path
 * SLs, those it has, are read and written in form; fabric.net, guid2lid,
 * vlroute-valiant.dump and vlroute-route.info are copied as they are;
 * vlroute-provenance.json is not (the table-set hash changes with the
 * form: the caller writes a new one). Refuses a directory without
 * fabric.net (an OpenSM dump_files_dir) and one whose LFTs are an
 * infiniband-diags dump. notes may be NULL.
 */
int vlr_tables_convert_files(const char *dir, enum vlr_tables_form form, const char *into,
			     struct vlr_tables_dir_notes *notes, struct vlr_error *err);

/*
 * Read a directory written by vlr_tables_write_dir or an OpenSM
 * dump_files_dir. The topology comes from fabric_path (a net file) if not
 * NULL, else DIR/fabric.net, else DIR/opensm-subnet.lst; the LIDs from
 * DIR/guid2lid if present, else from the topology (with LMCs inferred from
 * opensm-lfts.dump when the topology is a subnet.lst). The LFTs come from
 * exactly one of vlroute-lfts.bin, opensm-lfts.dump, dump_fts.out and
 * ibroute.out (the last two: vlr_diags_lfts_read); a directory with none
 * or two is refused; the SL2VL and path SLs, from their compact or their
 * text file (a directory with both forms of one is refused), and the
 * Valiant dump are read when present (without the last, lid_kind and
 * lid_via stay NULL), and the unprogrammable mark from
 * vlroute-route.info. The tables offer num_vls data VLs (1..15) or, with
 * num_vls 0, those vlroute-route.info says they were routed for ("vls N"),
 * else VLR_TABLES_DEFAULT_VLS (directories of earlier releases, OpenSM's
 * dumps): what a table directory is checked against when nobody says
 * otherwise. The tables own the fabric. notes may be NULL.
 */
#define VLR_TABLES_DEFAULT_VLS 8	/* the VLs of a directory that does not say */

struct vlr_tables *vlr_tables_read_dir(const char *dir, const char *fabric_path,
				       unsigned num_vls,
				       struct vlr_tables_dir_notes *notes,
				       struct vlr_error *err);

/*
 * vlroute-route.info: the engine that made a table directory, its routing
 * time, and the VL policy, LMC and data VLs it routed with, as "engine
 * NAME", "seconds S", "vl-policy TEXT" (vlr_vl_policy_describe's words, to
 * the end of the line; not written when vl_policy is "", as vlroute route
 * leaves it for sssp and dfsssp), "lmc N" and "vls N" (1..15, the VLs the
 * fabric offered the engine) lines ("#" comments; other keys are skipped),
 * and for tables made for ideal VLs only the mark "programmable no" with
 * "needs-sls N", "needs-vls N" and "offered-vls N" (see struct
 * vlr_unprogrammable). The writer replaces DIR/vlroute-route.info whole,
 * leaving out what is not known; the reader of a directory without one
 * leaves engine and vl_policy "", seconds -1, lmc -1, vls -1 and no mark,
 * and is content.
 */
struct vlr_route_info {
	char engine[32];		/* "" when not known */
	double seconds;			/* < 0 when not known */
	char vl_policy[128];		/* "" when not known or none */
	int lmc;			/* -1 when not known */
	int vls;			/* data VLs routed for, 1..15; -1 when
					   not known (earlier releases, OpenSM) */
	struct vlr_unprogrammable unprogrammable;
};

int vlr_route_info_write(const char *dir, const struct vlr_route_info *info,
			 struct vlr_error *err);
int vlr_route_info_read(const char *dir, struct vlr_route_info *info,
			struct vlr_error *err);

/*
 * A table directory in a result's provenance (util.h).
 *
 * vlr_tables_dir_hash: the table-set hash, the SHA-256 of DIR's regular
 * files in the byte order of their names, each fed as its name, a NUL,
 * its length in decimal, a NUL and its contents. Left out: names that
 * begin with '.', subdirectories, and the files that say how the tables
 * were made rather than what they are - vlroute-provenance.json (written
 * after the hash) and vlroute-route.info (it holds the routing time). So
 * two directories that hold the same files hash the same wherever they
 * are, and the hash vlroute route records in vlroute-provenance.json is
 * the one every later command reports for that directory. In a shell:
 *   for f in $(LC_ALL=C ls DIR); do printf '%s\0%s\0' $f $(stat -c %s DIR/$f);
 *   cat DIR/$f; done | sha256sum   (regular files, without the two above)
 *
 * vlr_tables_provenance fills t: dir and its hash, fabric_file (the
 * topology read, vlr_tables_dir_notes.topology) and its SHA-256, and the
 * engine, VL policy and LMC of DIR/vlroute-route.info (unknown without).
 *
 * vlr_provenance_file_write writes DIR/vlroute-provenance.json whole: the
 * provenance object of util.h on its own. Every reader of table
 * directories ignores it.
 */
int vlr_tables_dir_hash(const char *dir, char hex[VLR_SHA256_HEX], struct vlr_error *err);
int vlr_tables_provenance(const char *dir, const char *fabric_file,
			  struct vlr_provenance_tables *t, struct vlr_error *err);
int vlr_provenance_file_write(const char *dir, const struct vlr_provenance *provenance,
			      struct vlr_error *err);

/*
 * rdma-core's node-name-map (the --node-name-map file of infiniband-diags):
 * 'GUID "name"' lines, '#' comments, blank lines. The reader refuses with
 * FILE:LINE a malformed GUID, GUID 0, a line without a name, an unclosed
 * quote, text after the name, a name that is empty, longer than
 * VLR_MAX_NAME or holds a control character, and a GUID named twice.
 */
struct vlr_node_name_map;

struct vlr_node_name_map *vlr_node_name_map_read(const char *path,
						 struct vlr_error *err);
void vlr_node_name_map_free(struct vlr_node_name_map *map);

/* Entries read. */
unsigned vlr_node_name_map_size(const struct vlr_node_name_map *map);

/* The name of a node GUID, or NULL. */
const char *vlr_node_name_map_get(const struct vlr_node_name_map *map, uint64_t guid);

/*
 * Rename every node whose node GUID the map names (vlr_fabric_rename: the
 * NodeDescriptions the OpenSM dumps carry stay); *matched counts them.
 * GUIDs of the map that are not in the fabric are skipped (a site's map
 * covers more than one fabric). Refuses, all or nothing, names that two
 * nodes would share. For reports only: a renamed fabric is not the one the
 * files describe, so never write it.
 */
int vlr_node_name_map_apply(const struct vlr_node_name_map *map,
			    struct vlr_fabric *fabric, unsigned *matched,
			    struct vlr_error *err);

#endif
