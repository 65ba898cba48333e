/*
 * Which rank models which boards (tessera/models/rank_split.h).
 */
#include "tessera/models/rank_split.h"

#include <stdbool.h>
#include <stdio.h>

/* One way to cut a rectangle for n ranks in two. */
typedef struct RankCut {
    bool across_rows;     /* false: a cut between columns */
    uint32_t at;          /* the first part's columns (rows) */
    uint32_t ranks_first; /* ranks for the first part */
    uint32_t ranks_second;
    uint32_t length;      /* boards along the cut */
    /* the most boards a rank gets, load_boards / load_ranks */
    uint64_t load_boards, load_ranks;
} RankCut;

static uint32_t clamp_u32(uint32_t v, uint32_t lo, uint32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* How far the ranks are from halves, doubled. */
static uint32_t rank_cut_skew(const RankCut *c)
{
    uint32_t n = c->ranks_first + c->ranks_second;

    return 2 * c->ranks_first > n ? 2 * c->ranks_first - n
                                  : n - 2 * c->ranks_first;
}

static bool rank_cut_better(const RankCut *a, const RankCut *b)
{
    uint64_t la = a->load_boards * b->load_ranks;
    uint64_t lb = b->load_boards * a->load_ranks;

    if (la != lb) {
        return la < lb;
    }
    if (a->length != b->length) {
        return a->length < b->length;
    }
    /* Halves: the parts' own cuts are shorter, and fewer */
    if (rank_cut_skew(a) != rank_cut_skew(b)) {
        return rank_cut_skew(a) < rank_cut_skew(b);
    }
    if (a->across_rows != b->across_rows) {
        return !a->across_rows;
    }
    return a->at > b->at;
}

/* The cut at `at` of `span` with n1 of n ranks first; false if one part
 * would get more ranks than boards. */
static bool rank_cut_make(bool across_rows, uint32_t span, uint32_t length,
                          uint32_t at, uint32_t n, uint32_t n1, RankCut *cut)
{
    uint64_t first = (uint64_t)at * length;
    uint64_t second = (uint64_t)(span - at) * length;

    if (n1 == 0 || n1 >= n || first < n1 || second < n - n1) {
        return false;
    }
    cut->across_rows = across_rows;
    cut->at = at;
    cut->ranks_first = n1;
    cut->ranks_second = n - n1;
    cut->length = length;
    /* the larger of first / n1 and second / (n - n1) */
    if (first * (n - n1) >= second * n1) {
        cut->load_boards = first;
        cut->load_ranks = n1;
    } else {
        cut->load_boards = second;
        cut->load_ranks = n - n1;
    }
    return true;
}

static void rank_split_bisect(TesseraRankRect r, uint32_t n, uint32_t first,
                              TesseraRankRect *rects)
{
    RankCut best = {0};
    bool found = false;

    if (n == 1) {
        rects[first] = r;
        return;
    }
    for (int axis = 0; axis < 2; axis++) {
        bool across_rows = axis == 1;
        uint32_t span = across_rows ? r.y1 - r.y0 + 1 : r.x1 - r.x0 + 1;
        uint32_t length = across_rows ? r.x1 - r.x0 + 1 : r.y1 - r.y0 + 1;

        for (uint32_t at = 1; at < span; at++) {
            /* Ranks in proportion to boards, and its neighbours */
            uint32_t share = (uint32_t)(((uint64_t)2 * n * at + span) /
                                        (2 * (uint64_t)span));

            for (uint32_t d = 0; d < 3; d++) {
                uint32_t n1 = clamp_u32(share + d, 2, n) - 1;
                RankCut cut;

                if (rank_cut_make(across_rows, span, length, at, n, n1,
                                  &cut) &&
                    (!found || rank_cut_better(&cut, &best))) {
                    best = cut;
                    found = true;
                }
            }
        }
    }
    /* n <= boards leaves a cut (one column or row against the rest) */
    TesseraRankRect a = r, b = r;
    if (best.across_rows) {
        a.y1 = r.y0 + best.at - 1;
        b.y0 = r.y0 + best.at;
    } else {
        a.x1 = r.x0 + best.at - 1;
        b.x0 = r.x0 + best.at;
    }
    rank_split_bisect(a, best.ranks_first, first, rects);
    rank_split_bisect(b, n - best.ranks_first, first + best.ranks_first,
                      rects);
}

TesseraRankSplitStatus tessera_rank_split(uint32_t boards_x,
                                          uint32_t boards_y, uint32_t ranks,
                                          uint32_t grid_cols,
                                          uint32_t grid_rows,
                                          TesseraRankRect *rects)
{
    if (boards_x == 0 || boards_y == 0 || ranks == 0) {
        return TESSERA_RANK_SPLIT_NO_BOARDS;
    }
    if ((uint64_t)boards_x * boards_y < ranks) {
        return TESSERA_RANK_SPLIT_TOO_MANY;
    }
    if (grid_cols == 0 && grid_rows == 0) {
        TesseraRankRect all = {0, 0, boards_x - 1, boards_y - 1};

        rank_split_bisect(all, ranks, 0, rects);
        return TESSERA_RANK_SPLIT_OK;
    }
    if ((uint64_t)grid_cols * grid_rows != ranks) {
        return TESSERA_RANK_SPLIT_GRID_COUNT;
    }
    if (grid_cols > boards_x || grid_rows > boards_y) {
        return TESSERA_RANK_SPLIT_GRID_TOO_WIDE;
    }
    for (uint32_t j = 0; j < grid_rows; j++) {
        for (uint32_t i = 0; i < grid_cols; i++) {
            TesseraRankRect *r = &rects[j * grid_cols + i];

            r->x0 = i * boards_x / grid_cols;
            r->x1 = (i + 1) * boards_x / grid_cols - 1;
            r->y0 = j * boards_y / grid_rows;
            r->y1 = (j + 1) * boards_y / grid_rows - 1;
        }
    }
    return TESSERA_RANK_SPLIT_OK;
}

const char *tessera_rank_split_why(TesseraRankSplitStatus status)
{
    switch (status) {
    case TESSERA_RANK_SPLIT_OK:
        return "a tiling of the mesh";
    case TESSERA_RANK_SPLIT_NO_BOARDS:
        return "no boards or no ranks";
    case TESSERA_RANK_SPLIT_TOO_MANY:
        return "more ranks than boards";
    case TESSERA_RANK_SPLIT_GRID_COUNT:
        return "the grid's columns times rows are not the ranks";
    case TESSERA_RANK_SPLIT_GRID_TOO_WIDE:
        return "the grid has more columns or rows than the mesh has boards "
               "(it does not tile the mesh)";
    }
    return "unknown";
}

void tessera_rank_split_boards(const TesseraRankRect *rects, uint32_t ranks,
                               uint32_t boards_x, uint32_t *board_rank)
{
    for (uint32_t rank = 0; rank < ranks; rank++) {
        const TesseraRankRect *r = &rects[rank];

        for (uint32_t y = r->y0; y <= r->y1; y++) {
            for (uint32_t x = r->x0; x <= r->x1; x++) {
                board_rank[y * boards_x + x] = rank;
            }
        }
    }
}

void tessera_rank_rect_describe(const TesseraRankRect *rect, char *out,
                                size_t size)
{
    if (rect->x0 == rect->x1 && rect->y0 == rect->y1) {
        snprintf(out, size, "board (%u,%u)", rect->x0, rect->y0);
    } else {
        snprintf(out, size, "boards (%u,%u)..(%u,%u)", rect->x0, rect->y0,
                 rect->x1, rect->y1);
    }
}
