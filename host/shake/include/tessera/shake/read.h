// Reading molecules (docs/shake.md, "Input"):
//
//   PDB       ATOM and HETATM records give particles (serial in columns 7-11, x y z in 31-54,
//             element in 77-78, or when those are blank the first letter of the atom name in
//             13-16); a particle's mass is its element's standard atomic weight. CONECT records
//             give bond constraints, each pair once however often it is listed, whose length is
//             the distance between the two atoms in the file. Only the first MODEL is read; other
//             records are ignored.
//   molecule  this project's own text: "particles N", then N lines "x y z mass", then
//             "constraints M", then M lines "i j length" with particle indices from 0. Lines
//             that start with # and blank lines are comments.
//
// Malformed input is refused as a whole, with "<file>:<line>: <reason>".
#ifndef TESSERA_SHAKE_READ_H
#define TESSERA_SHAKE_READ_H

#include <string>

#include "tessera/shake/molecule.h"

namespace tessera::shake {

// `name` names the input in errors (its path, say) and becomes the molecule's name.
MoleculeResult readPdb(const std::string& text, const std::string& name);
MoleculeResult readMoleculeText(const std::string& text, const std::string& name);

// Reads a file as PDB when its name ends in .pdb or .ent (any case), otherwise as molecule text.
MoleculeResult readMoleculeFile(const std::string& path);

// The molecule text of `m`, which readMoleculeText reads back to the same numbers.
std::string moleculeText(const Molecule& m);

// The standard atomic weight of an element symbol of the small table PDB reading uses
// ("C", "Cl", ...; any case), or 0 for a symbol it does not know.
double elementMass(const std::string& symbol);

}  // namespace tessera::shake

#endif
