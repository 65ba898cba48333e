# The shapes the vertex apps are built and tested for (mesh-<shape>.props beside this file): the
# firmware build makes vertex_<app>-<shape> images, the host build a test program per shape.
set(TESSERA_VERTEX_SHAPES 3x1 2x2)
# Every app (<app>.cc), and the synchronous ones, which are also built on each software
# termination detector.
set(TESSERA_VERTEX_APPS sssp sssp_sync mssp_sync mssp_async snn_sync snn_async pagerank_sync
    pagerank_async heat_sync heat_async)
set(TESSERA_VERTEX_SYNC_APPS sssp_sync mssp_sync snn_sync pagerank_sync heat_sync)
set(TESSERA_VERTEX_SOFTWARE_DETECTORS clocktree safra)
