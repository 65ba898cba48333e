// What every run of a vertex app must show, on -M tessera (vertex_apps_test.cc) and on a board
// (vertex_board_test.cc): every vertex's result equal to the host reference, and the threads'
// reports adding up.
#ifndef TESSERA_TESTS_QEMU_VERTEX_EXPECT_AGREEMENT_H
#define TESSERA_TESTS_QEMU_VERTEX_EXPECT_AGREEMENT_H

#include <gtest/gtest.h>

#include "app_runs.h"

inline void ExpectResultsAgree(const vertex_runs::AppRun& run) {
  EXPECT_EQ(run.mismatches, 0u) << run.image << ": " << run.firstMismatch;
  EXPECT_EQ(run.devicesReported, run.vertices) << "the threads' reports";
  EXPECT_GT(run.totals.sent, 0u);
  EXPECT_GE(run.totals.delivered, run.totals.sent) << "a message reaches at least one in-edge";
}

#endif
