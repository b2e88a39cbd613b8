"use client";

import { useMemo } from "react";
import * as THREE from "three";

/**
 * Ball-and-stick impostors: every atom is one camera-facing quad (2 triangles) whose fragment shader ray-traces the
 * sphere (exact silhouette, normal and depth); every half-bond is one quad along the bond, shaded as a cylinder.
 * A 3,600-atom pocket is ~25 k triangles instead of ~520 k for tessellated instanced meshes, in two draw calls.
 */

// Lighting in view space (the light moves with the camera, as in the static renderer's fixed head-on light).
// three.js declares projectionMatrix for vertex shaders only; the fragment shaders need it for their depth.
const LIGHTING = /* glsl */ `
  uniform mat4 projectionMatrix;
  vec3 shade(vec3 base, vec3 normal, vec3 toCamera) {
    vec3 light = normalize(vec3(0.35, 0.55, 1.0));
    float diffuse = max(dot(normal, light), 0.0);
    vec3 halfway = normalize(light + toCamera);
    float specular = pow(max(dot(normal, halfway), 0.0), 40.0) * 0.35;
    return base * (0.38 + 0.72 * diffuse) + vec3(specular);
  }
  float depthOf(vec3 viewPosition) {
    vec4 clip = projectionMatrix * vec4(viewPosition, 1.0);
    return 0.5 * (clip.z / clip.w) + 0.5;
  }
`;

const SPHERE_VERTEX = /* glsl */ `
  attribute vec3 center;
  attribute vec3 atomColor;
  attribute float radius;
  varying vec3 vCenter;
  varying vec3 vColor;
  varying vec3 vPosition;
  varying float vRadius;
  void main() {
    vec4 c = modelViewMatrix * vec4(center, 1.0);
    // The quad lies in the view plane through the centre. Perspective widens the silhouette by d/sqrt(d²−r²) (≤ 0.3 %
    // at the closest zoom, 5 Å) and off-axis atoms by ≤ 1/cos(20°) ≈ 6 %: 1.15 covers both with few wasted fragments.
    vec3 p = c.xyz + vec3(position.xy * radius * 1.15, 0.0);
    vCenter = c.xyz;
    vColor = atomColor;
    vPosition = p;
    vRadius = radius;
    gl_Position = projectionMatrix * vec4(p, 1.0);
  }
`;

const SPHERE_FRAGMENT = /* glsl */ `
  varying vec3 vCenter;
  varying vec3 vColor;
  varying vec3 vPosition;
  varying float vRadius;
  ${LIGHTING}
  void main() {
    vec3 dir = normalize(vPosition);
    float b = dot(dir, vCenter);
    float disc = b * b - (dot(vCenter, vCenter) - vRadius * vRadius);
    if (disc < 0.0) discard;
    vec3 hit = dir * (b - sqrt(disc));
    vec3 normal = (hit - vCenter) / vRadius;
    gl_FragDepth = depthOf(hit);
    gl_FragColor = vec4(shade(vColor, normal, -dir), 1.0);
  }
`;

const CYLINDER_VERTEX = /* glsl */ `
  attribute vec3 start;
  attribute vec3 end;
  attribute vec3 atomColor;
  attribute float radius;
  varying vec3 vColor;
  varying vec3 vPosition;
  varying vec3 vSide;
  varying float vAcross;
  varying float vRadius;
  void main() {
    vec3 a = (modelViewMatrix * vec4(start, 1.0)).xyz;
    vec3 b = (modelViewMatrix * vec4(end, 1.0)).xyz;
    vec3 axis = b - a;
    vec3 toCamera = normalize(-(a + b) * 0.5);
    vec3 side = cross(axis, toCamera);
    float sideLength = length(side);
    side = sideLength > 1e-6 ? side / sideLength : vec3(1.0, 0.0, 0.0);
    vec3 p = mix(a, b, position.y) + side * position.x * radius;
    vColor = atomColor;
    vPosition = p;
    vSide = side;
    vAcross = position.x;
    vRadius = radius;
    gl_Position = projectionMatrix * vec4(p, 1.0);
  }
`;

const CYLINDER_FRAGMENT = /* glsl */ `
  varying vec3 vColor;
  varying vec3 vPosition;
  varying vec3 vSide;
  varying float vAcross;
  varying float vRadius;
  ${LIGHTING}
  void main() {
    vec3 toCamera = normalize(-vPosition);
    float u = clamp(vAcross, -1.0, 1.0);
    float bulge = sqrt(1.0 - u * u);
    vec3 normal = normalize(vSide * u + toCamera * bulge);
    gl_FragDepth = depthOf(vPosition + toCamera * bulge * vRadius);
    gl_FragColor = vec4(shade(vColor, normal, toCamera), 1.0);
  }
`;

/**
 * One quad per item (atom or half-bond) merged into a single indexed, non-instanced geometry: each of the quad's four
 * vertices carries the item's attributes. Software renderers (SwiftShader) pay per instance of an instanced draw,
 * which made the instanced quads cost 2–3 times their pixels; merged, the same shaders read the same attributes.
 */
function mergedQuads(
  across: [number, number],
  along: [number, number],
  count: number,
  attributes: Record<string, { data: Float32Array; size: number }>,
): THREE.BufferGeometry {
  const corners = [across[0], along[0], across[1], along[0], across[1], along[1], across[0], along[1]];
  const position = new Float32Array(count * 12);
  const index = count * 4 > 65535 ? new Uint32Array(count * 6) : new Uint16Array(count * 6);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 4; c++) {
      position[12 * i + 3 * c] = corners[2 * c]!;
      position[12 * i + 3 * c + 1] = corners[2 * c + 1]!;
    }
    index.set([4 * i, 4 * i + 1, 4 * i + 2, 4 * i, 4 * i + 2, 4 * i + 3], 6 * i);
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.BufferAttribute(position, 3));
  for (const [name, { data, size }] of Object.entries(attributes)) {
    const perVertex = new Float32Array(count * 4 * size);
    for (let i = 0; i < count; i++) {
      const item = data.subarray(size * i, size * (i + 1));
      for (let c = 0; c < 4; c++) perVertex.set(item, size * (4 * i + c));
    }
    geometry.setAttribute(name, new THREE.BufferAttribute(perVertex, size));
  }
  geometry.setIndex(new THREE.BufferAttribute(index, 1));
  return geometry;
}

export interface ImpostorAtoms {
  positions: Float32Array;
  colors: Float32Array;
  radii: Float32Array;
}

/** All atoms as sphere impostors (one draw call). */
export function AtomImpostors({ atoms }: { atoms: ImpostorAtoms }) {
  const geometry = useMemo(() => {
    return mergedQuads([-1, 1], [-1, 1], atoms.radii.length, {
      center: { data: atoms.positions, size: 3 },
      atomColor: { data: atoms.colors, size: 3 },
      radius: { data: atoms.radii, size: 1 },
    });
  }, [atoms]);
  const material = useMemo(
    () => new THREE.ShaderMaterial({ vertexShader: SPHERE_VERTEX, fragmentShader: SPHERE_FRAGMENT }),
    [],
  );
  // The quads are built in the shader: three's bounding volumes do not describe them.
  return <mesh geometry={geometry} material={material} frustumCulled={false} />;
}

export interface ImpostorBonds {
  starts: Float32Array;
  ends: Float32Array;
  colors: Float32Array;
  radius: number;
}

/** All half-bonds as cylinder impostors (one draw call), each coloured by its own atom (ChimeraX style). */
export function BondImpostors({ bonds }: { bonds: ImpostorBonds }) {
  const count = bonds.colors.length / 3;
  const geometry = useMemo(() => {
    return mergedQuads([-1, 1], [0, 1], count, {
      start: { data: bonds.starts, size: 3 },
      end: { data: bonds.ends, size: 3 },
      atomColor: { data: bonds.colors, size: 3 },
      radius: { data: new Float32Array(count).fill(bonds.radius), size: 1 },
    });
  }, [bonds, count]);
  const material = useMemo(
    () => new THREE.ShaderMaterial({ vertexShader: CYLINDER_VERTEX, fragmentShader: CYLINDER_FRAGMENT }),
    [],
  );
  if (count === 0) return null;
  return <mesh geometry={geometry} material={material} frustumCulled={false} />;
}
