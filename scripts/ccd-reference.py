"""Writes tests/fixtures/ccd/components.json: the CCD reference records of each templated component
(lib/molecule/chemistry/component-templates.ts), from Debian packages' files:

- pymol-data 2.5.0: /usr/share/pymol/data/chem_comp_bond-top100.cif, a verbatim subset of the wwPDB CCD's
  components.cif (CC0) with the bond records (orders, aromatic flags, hydrogens) of the 100 commonest components;
- refmac-dictionary 5.41: /usr/share/refmac/monomers/<x>/<ID>.cif, the CCP4 monomer library (LGPL-3): CCD atom
  names, elements, Kekulé bond orders (single/double/deloc/aromatic) and every hydrogen.

The drugs (DRUGS below) are in the monomer library only; their halogens are recorded like any heavy atom.

For C2E, which no shared structure holds, and STU it also writes <ID>-ideal.pdb: the monomer library's ideal
coordinates of the heavy atoms, one residue, to run the templates end to end.

Only facts are kept: per component and source, each heavy atom's element and hydrogen count (and, from the monomer
library, its charge: formal, or -0.5 on each O of an ionised P–O pair), and the heavy-atom
bonds with their order (Kekulé: sing/doub; the monomer library also deloc for ionised P–O) and aromatic flag. Bonds to metals are dropped (the project's bond perception leaves metals unbonded).

    apt-get install pymol-data refmac-dictionary   # or apt-get download + dpkg-deb -x into a folder
    python3 scripts/ccd-reference.py [--root /]     # the folder the packages were unpacked into
"""

import argparse
import collections
import json
import os
import re

IDS = "ADP ATP ANP ACP GDP GTP GNP GCP GSP C2E NAD NAI NAP NDP FMN FAD HEM H4B".split()
# Drugs and inhibitors: frequent bound drugs, and the drug-like ligands of the shared wwPDB files (GP6 1bju, E20 1eve,
# THA 1acj, 032 3og7). Halogens are kept in the records; the templates leave them to element typing.
DRUGS = "BEN AZM BTN MTX STI TOP G39 ZMR STU VIA AQ4 1N1 GP6 E20 THA 032".split()
IDS += DRUGS
METALS = {"FE", "Fe"}


def tokens(line):
    return [t[1:-1] if t[0] in "\"'" and t[-1] == t[0] and len(t) > 1 else t for t in re.findall(r"\"[^\"]*\"|\S+", line)]


def ccd_subset(path):
    comps = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith(("#", "_", "loop_", "data_")):
                continue
            p = tokens(line)
            if len(p) == 7:
                comps[p[0]].append(p[1:5])
    out = {}
    for cid, bonds in comps.items():
        # The subset has no atom records: in these components every H name starts with H and no heavy atom's does.
        element = lambda n: "H" if n.startswith("H") else "Fe" if n == "FE" else n[0]
        names = sorted({x for b in bonds for x in b[:2]})
        out[cid] = entry(
            {n: element(n) for n in names},
            [(a, b, order.lower(), arom == "Y") for a, b, order, arom in bonds],
        )
    return out


def monomer(path, cid, coordinates=None):
    atoms, bonds, charges, section = {}, [], {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("_chem_comp_atom."):
                section = "atom"
            elif line.startswith("_chem_comp_bond."):
                section = "bond"
            elif line.startswith(("loop_", "data_")):
                section = None
            p = tokens(line)
            if not p or p[0] != cid or line.startswith("_"):
                continue
            if section == "atom" and len(p) >= 5:
                atoms[p[1]] = p[2].capitalize()
                charges[p[1]] = float(p[4])
                if coordinates is not None and len(p) >= 8:
                    coordinates[p[1]] = (p[2].capitalize(), float(p[5]), float(p[6]), float(p[7]))
            elif section == "bond" and len(p) >= 4:
                order = {"single": "sing", "double": "doub", "triple": "trip"}.get(p[3], p[3])
                bonds.append((p[1], p[2], order, order == "aromatic"))
    return entry(atoms, bonds, charges)


def entry(elements, bonds, charges=None):
    hydrogens = collections.Counter()
    heavy_bonds = []
    for a, b, order, aromatic in bonds:
        if elements[a] == "H" or elements[b] == "H":
            hydrogens[b if elements[a] == "H" else a] += 1
        elif a not in METALS and b not in METALS:
            heavy_bonds.append([a, b, order, aromatic])
    atoms = {n: [e, hydrogens[n]] + ([charges[n]] if charges else []) for n, e in elements.items() if e != "H"}
    return {"atoms": atoms, "bonds": heavy_bonds}


def ideal_pdb(cid, coordinates):
    """The monomer library's ideal coordinates of a component's heavy atoms as PDB HETATM records."""
    lines = []
    for serial, (name, (element, x, y, z)) in enumerate(
        ((n, v) for n, v in coordinates.items() if v[0] != "H"), start=1
    ):
        padded = f" {name:<3}" if len(name) < 4 and len(element) == 1 else f"{name:<4}"
        lines.append(
            f"HETATM{serial:5d} {padded} {cid:>3} A   1    {x:8.3f}{y:8.3f}{z:8.3f}  1.00  0.00          {element.upper():>2}"
        )
    return "\n".join(lines + ["END", ""])


# C2E only: the library's ideal triphosphates are compressed (P–O–P 106°, P···P 2.58 Å, bonded by perception), so
# GSP is run end to end on 4dst's GCP instead (tests/unit/molecule/component-templates-ccd.test.ts).
# STU: on the library's ideal geometry, inference from bond lengths makes the lactam N1–H an acceptor.
IDEAL = ("C2E", "STU")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default="/")
    root = ap.parse_args().root
    subset = ccd_subset(os.path.join(root, "usr/share/pymol/data/chem_comp_bond-top100.cif"))
    fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "ccd")
    out = {}
    for cid in IDS:
        sources = []
        if cid in subset:
            sources.append({"source": "wwPDB CCD (subset in Debian pymol-data 2.5.0)", **subset[cid]})
        coordinates = {}
        lib = monomer(os.path.join(root, f"usr/share/refmac/monomers/{cid[0].lower()}/{cid}.cif"), cid, coordinates)
        if cid in IDEAL:
            with open(os.path.join(fixtures, f"{cid}-ideal.pdb"), "w") as f:
                f.write(ideal_pdb(cid, coordinates))
        sources.append({"source": "CCP4 monomer library (Debian refmac-dictionary 5.41)", **lib})
        if len(sources) == 2:
            a, b = sources[0]["atoms"], sources[1]["atoms"]
            assert {n: v[0] for n, v in a.items()} == {n: v[0] for n, v in b.items()}, f"{cid}: sources disagree"
        out[cid] = sources
    with open(os.path.join(fixtures, "components.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
