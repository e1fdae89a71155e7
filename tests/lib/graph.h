/*
 * graph.h - library calls captured in a CUDA graph, for the CUDA tests.
 *
 * The capture is in global mode: an allocation, a synchronization or a
 * legacy-stream call by any thread during it makes it fail, so a call
 * that does any of these shows.  A test captures, checks, replays:
 *
 *   struct tu_graph g;
 *   tu_graph_begin(&g, stream);              (the handle's stream)
 *   const gpureduce_status_t st = gpureduce_reduce(..., handle);
 *   tu_graph_end(&g);
 *   check_status(GPUREDUCE_SUCCESS, st, "gpureduce_reduce during capture");
 *   tu_graph_instantiate(&g, "gpureduce_reduce", 1, "one node, its kernel", 1);
 *   tu_graph_launch(&g);                     (then the replay's checks)
 *   tu_graph_destroy(&g);
 *
 * tu_graph_end checks nothing, so that no failed check leaves the stream
 * capturing; the calls' statuses are checked next, before what the
 * capture made.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTS_GRAPH_H
#define GPUREDUCE_TESTS_GRAPH_H

#include <stddef.h>

#include <cuda_runtime_api.h>

struct tu_graph {
  cudaStream_t stream;
  cudaGraph_t graph;     /* the capture's graph (NULL if it failed) */
  cudaGraphExec_t exec;  /* its executable (tu_graph_instantiate) */
  cudaError_t is_err;    /* cudaStreamIsCapturing at the end of the capture */
  enum cudaStreamCaptureStatus capture; /* and the state it gave */
  cudaError_t end_err;   /* cudaStreamEndCapture */
};

/* Begin capturing what is enqueued on `stream` (failing the test if the
 * capture cannot begin). */
void tu_graph_begin(struct tu_graph *g, cudaStream_t stream);
/* End the capture: record whether it was still active, and its graph. */
void tu_graph_end(struct tu_graph *g);
/* Check the capture of `calls` (for the messages): it was still active
 * after them (none allocated or synchronized) and ended with a graph of
 * `nodes` nodes, or with nodes 0 of at least one (the count printed as a
 * TAP comment), `holds` saying what they are; with `kernels`, every node
 * is a kernel launch.  Then instantiate the graph into g->exec. */
void tu_graph_instantiate(struct tu_graph *g, const char *calls, size_t nodes, const char *holds,
                          int kernels);
/* Launch the graph on the capture's stream (without waiting for it). */
void tu_graph_launch(struct tu_graph *g);
/* Destroy the executable and the graph. */
void tu_graph_destroy(struct tu_graph *g);

#endif /* GPUREDUCE_TESTS_GRAPH_H */
