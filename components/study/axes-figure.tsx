/** The screen coordinate convention: X right, Y up, Z toward the viewer; right-hand rotations. */
export function AxesFigure() {
  return (
    <figure className="flex flex-col items-center">
      <svg viewBox="0 0 220 200" width="220" height="200" role="img" aria-labelledby="axes-title axes-desc">
        <title id="axes-title">Screen axes</title>
        <desc id="axes-desc">
          X points right, Y points up, Z points out of the screen toward you. Positive rotations are counter-clockwise
          when the axis points at you.
        </desc>
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="8"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" fill="currentColor" />
          </marker>
          <marker
            id="arrow-roll"
            viewBox="0 0 10 10"
            refX="8"
            refY="5"
            markerWidth="6"
            markerHeight="6"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" fill="#1d4ed8" />
          </marker>
        </defs>
        <g stroke="currentColor" strokeWidth="3" className="text-slate-800">
          <line x1="80" y1="130" x2="190" y2="130" markerEnd="url(#arrow)" />
          <line x1="80" y1="130" x2="80" y2="20" markerEnd="url(#arrow)" />
        </g>
        <circle cx="80" cy="130" r="11" fill="white" stroke="#1e293b" strokeWidth="3" />
        <circle cx="80" cy="130" r="3.5" fill="#1e293b" />
        <text x="196" y="135" fontSize="16" fontWeight="600">
          X
        </text>
        <text x="72" y="14" fontSize="16" fontWeight="600">
          Y
        </text>
        <text x="40" y="160" fontSize="16" fontWeight="600">
          Z (toward you)
        </text>
        {/* The roll about z is drawn around the Z dot (the axis pointing at the viewer), between the X and Y axes,
            turning counter-clockwise from the X side toward the Y side. */}
        <path
          d="M 117.6 116.3 A 40 40 0 0 0 95.0 92.9"
          fill="none"
          stroke="#1d4ed8"
          strokeWidth="2.5"
          markerEnd="url(#arrow-roll)"
        />
        <text x="114" y="90" fontSize="13" fontWeight="600" fill="#1d4ed8">
          +roll z
        </text>
      </svg>
      <figcaption className="mt-1 max-w-xs text-center text-sm text-slate-600">
        X right, Y up, Z out of the screen toward you. A positive roll turns counter-clockwise when its axis points at
        you (right-hand rule).
      </figcaption>
    </figure>
  );
}
