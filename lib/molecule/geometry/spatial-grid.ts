/**
 * Uniform hash grid for neighbour queries, so contact searches cost O(n) instead of an all-pairs
 * scan. Cells are cubes of `cellSizeA`; a query visits the cells overlapping the query sphere.
 */

export interface PointLike {
  x: number;
  y: number;
  z: number;
}

export interface SpatialGrid {
  cellSizeA: number;
  points: readonly PointLike[];
  cells: Map<number, number[]>;
}

// Cell indices are offset and packed into one integer key below 2^51 (exact in a double): 2^17
// cells per axis covers ±65536 cells, i.e. ±32 km even at 0.5 Å cells, far beyond any PDB
// coordinate (|x| < 10^4 Å by the format's columns).
const AXIS_CELLS = 1 << 17;
const AXIS_OFFSET = 1 << 16;

function cellKey(ix: number, iy: number, iz: number): number {
  return ((ix + AXIS_OFFSET) * AXIS_CELLS + (iy + AXIS_OFFSET)) * AXIS_CELLS + (iz + AXIS_OFFSET);
}

export function createSpatialGrid(points: readonly PointLike[], cellSizeA: number): SpatialGrid {
  const cells = new Map<number, number[]>();
  points.forEach((p, i) => {
    const key = cellKey(Math.floor(p.x / cellSizeA), Math.floor(p.y / cellSizeA), Math.floor(p.z / cellSizeA));
    const cell = cells.get(key);
    if (cell) cell.push(i);
    else cells.set(key, [i]);
  });
  return { cellSizeA, points, cells };
}

/**
 * Indices of grid points within `radiusA` of `p` (inclusive), in ascending index order so that
 * every caller's output is deterministic.
 */
export function findNeighbours(grid: SpatialGrid, p: PointLike, radiusA: number): number[] {
  const s = grid.cellSizeA;
  const r2 = radiusA * radiusA;
  const out: number[] = [];
  const x0 = Math.floor((p.x - radiusA) / s);
  const x1 = Math.floor((p.x + radiusA) / s);
  const y0 = Math.floor((p.y - radiusA) / s);
  const y1 = Math.floor((p.y + radiusA) / s);
  const z0 = Math.floor((p.z - radiusA) / s);
  const z1 = Math.floor((p.z + radiusA) / s);
  for (let ix = x0; ix <= x1; ix++) {
    for (let iy = y0; iy <= y1; iy++) {
      for (let iz = z0; iz <= z1; iz++) {
        const cell = grid.cells.get(cellKey(ix, iy, iz));
        if (!cell) continue;
        for (const i of cell) {
          const q = grid.points[i]!;
          const dx = q.x - p.x;
          const dy = q.y - p.y;
          const dz = q.z - p.z;
          if (dx * dx + dy * dy + dz * dz <= r2) out.push(i);
        }
      }
    }
  }
  return out.sort((a, b) => a - b);
}
