/*
 * graph.c - library calls captured in a CUDA graph (graph.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdlib.h>

#include "graph.h"

#include "testutil.h"

void tu_graph_begin(struct tu_graph *g, cudaStream_t stream) {
  g->stream = stream;
  g->graph = NULL;
  g->exec = NULL;
  g->is_err = g->end_err = cudaSuccess;
  g->capture = cudaStreamCaptureStatusNone;
  CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
}

void tu_graph_end(struct tu_graph *g) {
  g->capture = cudaStreamCaptureStatusNone;
  g->is_err = cudaStreamIsCapturing(g->stream, &g->capture);
  g->end_err = cudaStreamEndCapture(g->stream, &g->graph);
}

void tu_graph_instantiate(struct tu_graph *g, const char *calls, size_t nodes, const char *holds,
                          int kernels) {
  check_true(g->is_err == cudaSuccess && g->capture == cudaStreamCaptureStatusActive,
             "the capture is still active after %s (%s, status %d): no allocation or "
             "synchronization",
             calls, cudaGetErrorString(g->is_err), (int)g->capture);
  check_true(g->end_err == cudaSuccess && g->graph != NULL, "cudaStreamEndCapture: %s",
             cudaGetErrorString(g->end_err));
  size_t count = 0;
  CK(cudaGraphGetNodes(g->graph, NULL, &count));
  if (nodes == 0) {
    print_message("# the captured graph has %zu node(s)\n", count);
    check_true(count >= 1, "the graph holds %s (%zu nodes)", holds, count);
  } else {
    check_true(count == nodes, "the graph holds %s (%zu nodes)", holds, count);
  }
  if (kernels) {
    cudaGraphNode_t *node = tu_alloc(count * sizeof *node);
    size_t got = count;
    CK(cudaGraphGetNodes(g->graph, node, &got));
    for (size_t i = 0; i < got; ++i) {
      enum cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
      CK(cudaGraphNodeGetType(node[i], &type));
      check_true(type == cudaGraphNodeTypeKernel, "node %zu of %zu is a kernel launch (type %d)",
                 i, got, (int)type);
    }
    free(node);
  }
  CK(cudaGraphInstantiate(&g->exec, g->graph, 0));
}

void tu_graph_launch(struct tu_graph *g) { CK(cudaGraphLaunch(g->exec, g->stream)); }

void tu_graph_destroy(struct tu_graph *g) {
  CK(cudaGraphExecDestroy(g->exec));
  CK(cudaGraphDestroy(g->graph));
  g->exec = NULL;
  g->graph = NULL;
}
