/*
 * rs_registry.h - the rulesets a program knows, for rs.c.
 *
 * Not written by hand: cmake/rs_registry.cmake generates the C file that
 * defines these, one row per engine/rulesets/<id>/rs_<id>_decl.c, in the
 * order of each system's rank. The engine's library holds that file; a
 * test build that adds a system (tests/rulesets/toy) links its own
 * generated file, whose definitions the linker then takes instead of the
 * library's.
 */
#ifndef RS_REGISTRY_H
#define RS_REGISTRY_H

#include <stddef.h>

#include "rs.h"

extern const struct rs_system *const rs_registry[];
extern const size_t rs_registry_rows;

#endif
