import { DataTable } from "@/components/ui/data-table";
/** Tasks whose questions are about hydrogen bonds: the primer (when the study enables it) comes before the first one. */
export const HBOND_TASK_IDS = new Set(["residue_ligand", "docking", "interaction_location", "pocket_ligand"]);

const ROWS: Array<[string, string]> = [
  ["Backbone (every residue)", "N (donor), O (acceptor); CA and C are carbons: never"],
  ["SER, THR, TYR", "OG / OG1 / OH (donor and acceptor)"],
  ["ASN, GLN", "OD1 / OE1 (acceptor), ND2 / NE2 (donor)"],
  ["ASP, GLU", "OD1, OD2 / OE1, OE2 (acceptors)"],
  ["LYS, ARG", "NZ / NE, NH1, NH2 (donors)"],
  ["HIS, TRP", "ND1, NE2 (either) / NE1 (donor)"],
];

/**
 * A short illustrated primer for the hydrogen-bond tasks (switchable per study): which atoms can form hydrogen bonds,
 * how far apart they are, and how residue atoms are named.
 */
export function HbondPrimer({ onDone }: { onDone: () => void }) {
  return (
    <section aria-labelledby="primer-title" className="max-w-4xl space-y-4">
      <h2 id="primer-title" className="text-2xl font-semibold">
        Before the next questions: hydrogen bonds in one minute
      </h2>
      <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_280px]">
        <div className="space-y-3 leading-relaxed">
          <p>
            A hydrogen bond joins a <strong>donor</strong> (a nitrogen or oxygen carrying a hydrogen) and an{" "}
            <strong>acceptor</strong> (a nitrogen or oxygen with a free electron pair). In the images, nitrogen is{" "}
            <span className="font-semibold text-blue-700">blue</span> and oxygen{" "}
            <span className="font-semibold text-red-700">red</span>; hydrogens are not drawn.
          </p>
          <p>
            Only N and O atoms count: carbons (purple, orange or grey) never form these bonds. The two atoms are close,
            about <strong>2.6–3.5 Å</strong> apart, roughly the length of two bonds. A pair that looks close in one view
            can be far apart in depth: check it in several views.
          </p>
          <p>
            Residue atoms are named by residue and position: <code>N</code>, <code>CA</code>, <code>C</code>,{" "}
            <code>O</code> are the backbone; side-chain atoms carry the Greek letter of their position (B, G, D, E, Z, H
            = β, γ, δ, ε, ζ, η) and a number, e.g. <code>SER OG</code>, <code>ASN ND2</code>. Ligand atoms have their
            own names (e.g. <code>O3</code>, <code>N1</code>).
          </p>
        </div>
        <svg
          viewBox="0 0 280 170"
          width="280"
          height="170"
          role="img"
          aria-labelledby="primer-fig-title"
          className="rounded bg-black"
        >
          <title id="primer-fig-title">
            A hydrogen bond: the nitrogen of a residue (blue, donor) about 3 Å from an oxygen of the ligand (red,
            acceptor)
          </title>
          <line x1="40" y1="120" x2="80" y2="85" stroke="#BF99F2" strokeWidth="8" />
          <line x1="200" y1="85" x2="245" y2="120" stroke="#A9A9A9" strokeWidth="8" />
          <line x1="92" y1="85" x2="188" y2="85" stroke="#fde047" strokeWidth="3" strokeDasharray="6 5" />
          <circle cx="40" cy="120" r="14" fill="#BF99F2" />
          <circle cx="80" cy="85" r="15" fill="#3050F8" />
          <circle cx="200" cy="85" r="15" fill="#FF0D0D" />
          <circle cx="245" cy="120" r="14" fill="#A9A9A9" />
          <g
            fontFamily="DejaVu Sans, sans-serif"
            fontWeight="700"
            fontSize="14"
            fill="#fff"
            stroke="#000"
            strokeWidth="3"
            paintOrder="stroke"
          >
            <text x="62" y="62">
              SER N
            </text>
            <text x="186" y="62">
              O3
            </text>
            <text x="112" y="108" fill="#fde047">
              ≈ 3 Å
            </text>
            <text x="12" y="158" fontSize="12">
              residue (donor)
            </text>
            <text x="148" y="158" fontSize="12">
              ligand (acceptor)
            </text>
          </g>
        </svg>
      </div>
      <DataTable variant="plain" className="w-full max-w-3xl border-collapse">
        <caption className="mb-1 text-left font-medium">Residue atoms that can form hydrogen bonds</caption>
        <thead>
          <tr className="border-b border-slate-400 text-left">
            <th scope="col" className="py-1 pr-3">
              Residue
            </th>
            <th scope="col" className="py-1">
              Atoms (name: role)
            </th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map(([residue, atoms]) => (
            <tr key={residue} className="border-b border-slate-200">
              <td className="py-1 pr-3">{residue}</td>
              <td className="py-1 font-mono">{atoms}</td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      <button
        type="button"
        autoFocus
        onClick={onDone}
        className="rounded bg-blue-700 px-5 py-2 font-medium text-white hover:bg-blue-800"
      >
        Continue to the instructions
      </button>
    </section>
  );
}
