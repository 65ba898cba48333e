/*
 * Which process (rank) models which boards, when the machine runs over
 * several (docs/ranks.md). Every rank gets one rectangle of boards; the
 * rectangles tile the mesh.
 *
 * Automatic: recursive bisection. A rectangle for n ranks is cut in two,
 * across the axis and at the place that leave the most boards any rank gets
 * smallest (then the shorter cut, then the ranks nearest halves, then
 * columns before rows, then the larger first part), with the ranks shared out in proportion; each part is split
 * again. Messages crossing a cut are what ranks pay for, so rectangles
 * (short edges) beat runs of boards.
 *
 * Overridden: a grid of cols x rows ranks (the machine property
 * ranks-grid=CxR): rank j * cols + i holds columns [i * bx / cols,
 * (i + 1) * bx / cols) of rows [j * by / rows, (j + 1) * by / rows).
 *
 * Rank 0 always holds board (0, 0), where the host link attaches.
 * Plain C, no allocation: the caller gives room for `ranks` rectangles.
 */
#ifndef TESSERA_MODELS_RANK_SPLIT_H
#define TESSERA_MODELS_RANK_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Boards x0..x1, y0..y1, both ends included. */
typedef struct TesseraRankRect {
    uint32_t x0, y0, x1, y1;
} TesseraRankRect;

typedef enum TesseraRankSplitStatus {
    TESSERA_RANK_SPLIT_OK,
    TESSERA_RANK_SPLIT_NO_BOARDS,     /* a mesh of 0 boards, or 0 ranks */
    TESSERA_RANK_SPLIT_TOO_MANY,      /* more ranks than boards */
    TESSERA_RANK_SPLIT_GRID_COUNT,    /* cols * rows is not the rank count */
    TESSERA_RANK_SPLIT_GRID_TOO_WIDE, /* more columns (rows) than boards */
} TesseraRankSplitStatus;

/*
 * Fills rects[0 .. ranks-1]. grid_cols and grid_rows both 0: automatic;
 * otherwise the grid they give.
 */
TesseraRankSplitStatus tessera_rank_split(uint32_t boards_x,
                                          uint32_t boards_y, uint32_t ranks,
                                          uint32_t grid_cols,
                                          uint32_t grid_rows,
                                          TesseraRankRect *rects);

/* Why a split was refused, as the end of a sentence ("...: <why>"). */
const char *tessera_rank_split_why(TesseraRankSplitStatus status);

/* The rank of each board, board_rank[y * boards_x + x]. */
void tessera_rank_split_boards(const TesseraRankRect *rects, uint32_t ranks,
                               uint32_t boards_x, uint32_t *board_rank);

/*
 * "board (x,y)" or "boards (x0,y0)..(x1,y1)", NUL-terminated in `out`
 * (at most `size` bytes, 48 always suffice).
 */
void tessera_rank_rect_describe(const TesseraRankRect *rect, char *out,
                                size_t size);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_RANK_SPLIT_H */
