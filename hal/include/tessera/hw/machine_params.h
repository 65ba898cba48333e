/*
 * The machine description: every property of -M tessera with its range and
 * default, and the limits no single property can express. One table, read
 * by the QEMU machine (its property table and -M tessera,help), by the host
 * machine (boards/hosted MachineParams defaults), by the device models and the
 * docs checks (boards/tessera/check-props.sh compares -M tessera,help).
 *
 * Plain C, shared by firmware, models, QEMU and host code like regs.h.
 */
#ifndef TESSERA_HW_MACHINE_PARAMS_H
#define TESSERA_HW_MACHINE_PARAMS_H

/* Limits of the shape. */
#define TESSERA_MAX_BOARDS_XY   8u
#define TESSERA_MAX_TILES_XY    8u
#define TESSERA_MAX_CORES       16u
#define TESSERA_MAX_THREADS     64u
#define TESSERA_MAX_HARTS       65536u

/*
 * X(field, name, min, max, power_of_two, default, description) for every
 * uint32 property. A property whose default is below its minimum (dram-mib)
 * also accepts that default, meaning "automatic".
 */
#define TESSERA_MACHINE_PROPERTIES(X)                                          \
    X(boards_x, "boards-x", 1, TESSERA_MAX_BOARDS_XY, 0, 1,                    \
      "boards in the mesh, X extent")                                          \
    X(boards_y, "boards-y", 1, TESSERA_MAX_BOARDS_XY, 0, 1,                    \
      "boards in the mesh, Y extent")                                          \
    X(tiles_x, "tiles-x", 1, TESSERA_MAX_TILES_XY, 1, 2,                       \
      "tiles per board, X extent (power of two)")                              \
    X(tiles_y, "tiles-y", 1, TESSERA_MAX_TILES_XY, 1, 2,                       \
      "tiles per board, Y extent (power of two)")                              \
    X(cores_per_tile, "cores-per-tile", 1, TESSERA_MAX_CORES, 1, 1,            \
      "cores per tile, sharing its mailbox (power of two)")                    \
    X(threads_per_core, "threads-per-core", 1, TESSERA_MAX_THREADS, 1, 4,      \
      "hardware threads (harts) per core (power of two)")                      \
    X(clock_mhz, "clock-mhz", 1, 10000, 0, 240,                                \
      "modelled core clock in MHz")                                            \
    X(tile_hop_cycles, "tile-hop-cycles", 0, 100000, 0, 4,                     \
      "modelled latency of one hop between tiles, in cycles")                  \
    X(board_hop_cycles, "board-hop-cycles", 0, 1000000, 0, 150,               \
      "modelled latency L of one inter-board link hop, in cycles")             \
    X(dram_mib, "dram-mib", 8, 2047, 0, 0,                                     \
      "DRAM per board in MiB; 0 (the default) sizes it to fit the image "      \
      "and the partitions")                                                    \
    X(partition_kib, "partition-kib", 4, 65536, 1, 16,                         \
      "stack and heap partition per hart in KiB (power of two)")               \
    X(cpi, "cpi", 1, 1000, 0, 1,                                               \
      "modelled cycles per retired instruction")                               \
    X(buffer_flits, "buffer-flits", 4, 1048576, 0, 64,                         \
      "network buffering toward each mailbox, in flits")                       \
    X(ocbus_lines, "ocbus-lines", 4, 8, 0, 8,                                  \
      "open-collector bus lines, each spanning every hart")                    \
    X(ocbus_settle_cycles, "ocbus-settle-cycles", 0, 100000, 0, 10,            \
      "modelled settle time of an open-collector bus line, in cycles")         \
    X(reflex_buffer_flits, "reflex-buffer-flits", 1, 1024, 0, 4,               \
      "reflex switch buffer B: flits in each core's inbound and outbound "     \
      "buffer")                                                                \
    X(reflex_hop_cycles, "reflex-hop-cycles", 0, 100000, 0, 1,                 \
      "modelled latency of one reflex switch-to-switch hop, in cycles")       \
    X(barrier_tile_x, "barrier-tile-x", 0,                                     \
      TESSERA_MAX_BOARDS_XY * TESSERA_MAX_TILES_XY - 1, 0, 0,                 \
      "barrier controller's tile, X in the global tile grid (board x * "      \
      "tiles-x + tile x)")                                                     \
    X(barrier_tile_y, "barrier-tile-y", 0,                                     \
      TESSERA_MAX_BOARDS_XY * TESSERA_MAX_TILES_XY - 1, 0, 0,                 \
      "barrier controller's tile, Y in the global tile grid (board y * "      \
      "tiles-y + tile y)")

/* TESSERA_DEFAULT_<field>: each property's default, e.g.
 * TESSERA_DEFAULT_clock_mhz. */
#define TESSERA_MACHINE_DEFAULT_(field, name, min, max, pow2, dflt, desc)      \
    TESSERA_DEFAULT_##field = (dflt),
enum TesseraMachineDefaults {
    TESSERA_MACHINE_PROPERTIES(TESSERA_MACHINE_DEFAULT_)
};
#undef TESSERA_MACHINE_DEFAULT_

/* TESSERA_MIN_<field> and TESSERA_LIMIT_<field>: each property's range,
 * e.g. TESSERA_LIMIT_cpi, for code that checks a value outside the QEMU
 * property table (models, the host backend). */
#define TESSERA_MACHINE_RANGE_(field, name, min, max, pow2, dflt, desc)        \
    TESSERA_MIN_##field = (min), TESSERA_LIMIT_##field = (max),
enum TesseraMachineRanges {
    TESSERA_MACHINE_PROPERTIES(TESSERA_MACHINE_RANGE_)
};
#undef TESSERA_MACHINE_RANGE_

#endif /* TESSERA_HW_MACHINE_PARAMS_H */
