// Markers on the seek bar: moments closer than a marker's width on screen share one marker, which
// shows how many it holds and seeks to the earliest.

export interface MarkerPoint {
  id: string;
  at: number;
}

export interface MarkerCluster {
  /** The earliest moment's time: where the marker sits and seeks to. */
  at: number;
  /** The last moment's time in the cluster. */
  until: number;
  ids: string[];
  /** Position along the bar, 0–1. */
  left: number;
}

export function clusterMarkers(points: readonly MarkerPoint[], durationSeconds: number, widthPx: number, minGapPx = 24): MarkerCluster[] {
  if (!(durationSeconds > 0) || !(widthPx > 0)) return [];
  const sorted = [...points].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const clusters: MarkerCluster[] = [];
  let startPx = Number.NEGATIVE_INFINITY;
  for (const point of sorted) {
    const left = Math.min(1, Math.max(0, point.at / durationSeconds));
    const px = left * widthPx;
    const current = clusters.at(-1);
    if (current && px - startPx < minGapPx) {
      current.ids.push(point.id);
      current.until = point.at;
    } else {
      clusters.push({ at: point.at, until: point.at, ids: [point.id], left });
      startPx = px;
    }
  }
  return clusters;
}
