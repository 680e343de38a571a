// The storage engine's figures (Admin::GetStoreStats) on /metrics, labelled by table and
// family, e.g. basalt_engine_memtable_bytes{table="ns:t",family="f"}. See docs/rest.md.

#ifndef BASALT_SERVER_ENGINE_METRICS_H_
#define BASALT_SERVER_ENGINE_METRICS_H_

#include "basalt/connection.h"
#include "server/http/metrics.h"

namespace basalt::server {

// Registers one collector that reads conn's statistics at each scrape. A backend without them
// (thrift://) adds nothing. `conn` must outlive `metrics`' last Render.
// REQUIRES: called before serving.
void RegisterEngineMetrics(Connection& conn, http::Metrics* metrics);

}  // namespace basalt::server

#endif  // BASALT_SERVER_ENGINE_METRICS_H_
