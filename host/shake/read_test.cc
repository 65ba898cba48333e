#include "tessera/shake/read.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace tessera::shake {
namespace {

// An ATOM record with PDB's fixed columns; an empty element leaves columns 77-78 out.
std::string atom(int serial, const char* name, double x, double y, double z, const char* element) {
  char line[96];
  snprintf(line, sizeof line,
           "ATOM  %5d %-4s HOH A   1    %8.3f%8.3f%8.3f  1.00  0.00          %2s", serial, name, x,
           y, z, element);
  std::string s = line;
  if (element[0] == '\0') s.resize(54);
  return s + "\n";
}

const std::string kWater = "HEADER    WATER\n" + atom(1, "O", 0, 0, 0, "O") +
                           atom(2, "H1", 0.957, 0, 0, "H") + atom(3, "H2", -0.24, 0.927, 0, "H") +
                           "CONECT    1    2    3\nCONECT    2    1\nCONECT    3    1\nEND\n";

TEST(ShakeReadPdb, ReadsAtomsMassesAndConectBondsOnce) {
  const MoleculeResult r = readPdb(kWater, "water.pdb");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.molecule.particles.size(), 3u);
  EXPECT_DOUBLE_EQ(r.molecule.particles[0].mass, 15.999);
  EXPECT_DOUBLE_EQ(r.molecule.particles[1].mass, 1.008);
  EXPECT_DOUBLE_EQ(r.molecule.particles[1].x, 0.957);
  EXPECT_EQ(r.molecule.particles[2].line, 4u);
  ASSERT_EQ(r.molecule.constraints.size(), 2u);  // 1-2 and 1-3, each listed twice
  EXPECT_EQ(r.molecule.constraints[0].i, 0u);
  EXPECT_EQ(r.molecule.constraints[0].j, 1u);
  EXPECT_DOUBLE_EQ(r.molecule.constraints[0].length, 0.957);
  EXPECT_DOUBLE_EQ(r.molecule.constraints[1].length, std::sqrt(0.24 * 0.24 + 0.927 * 0.927));
  EXPECT_EQ(r.molecule.constraints[1].line, 5u);
}

TEST(ShakeReadPdb, TakesTheElementFromTheAtomNameWithoutElementColumns) {
  const MoleculeResult r =
      readPdb(atom(1, "CA", 0, 0, 0, "") + atom(2, "1HB", 1, 0, 0, ""), "old.pdb");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_DOUBLE_EQ(r.molecule.particles[0].mass, 12.011);
  EXPECT_DOUBLE_EQ(r.molecule.particles[1].mass, 1.008);
}

TEST(ShakeReadPdb, ReadsOnlyTheFirstModel) {
  const std::string text = "MODEL        1\n" + atom(1, "C", 0, 0, 0, "C") +
                           atom(2, "C", 1.5, 0, 0, "C") + "ENDMDL\nMODEL        2\n" +
                           atom(1, "C", 0, 0, 0, "C") + "ENDMDL\nCONECT    1    2\n";
  const MoleculeResult r = readPdb(text, "models.pdb");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.molecule.particles.size(), 2u);
  EXPECT_EQ(r.molecule.constraints.size(), 1u);
}

struct BadInput {
  std::string text, error;
};

TEST(ShakeReadPdb, RefusesBadInputNamingTheLine) {
  const BadInput cases[] = {
      {kWater.substr(0, kWater.find("END")) + "CONECT    3    9\n",
       "w.pdb:8: CONECT names atom 9, which no ATOM or HETATM record has"},
      {atom(1, "C", 1, 2, 3, "C") + atom(2, "C", 1, 2, 3, "C") + "CONECT    1    2\n",
       "w.pdb:3: atoms 1 and 2 are at the same place: a zero-length constraint"},
      {atom(1, "X", 0, 0, 0, "Xx"), "w.pdb:1: unknown element 'Xx': no mass for it"},
      {atom(1, "C", 1, 2, 3, "C").substr(0, 46) + "\n",
       "w.pdb:1: an ATOM record needs columns 1-54 (x, y, z), this has 46"},
      {atom(1, "C", 1, 2, 3, "C").replace(38, 8, "    2.0e"), "w.pdb:1: y '2.0e' is not a number"},
      {atom(1, "C", 0, 0, 0, "C") + atom(1, "C", 1, 0, 0, "C"),
       "w.pdb:2: atom serial 1 is used twice"},
      {atom(1, "C", 0, 0, 0, "C") + "CONECT    1\n", "w.pdb:2: CONECT lists no bonded atom"},
      {atom(1, "C", 0, 0, 0, "C") + "CONECT    1    1\n", "w.pdb:2: CONECT bonds atom 1 to itself"},
      {atom(1, "C", 0, 0, 0, "C") + "CONECT    1   x2\n",
       "w.pdb:2: CONECT bonded atom serial 'x2' is not a number"},
      {"HEADER\nREMARK\n", "w.pdb:2: no ATOM or HETATM records"},
      {"", "w.pdb:1: no ATOM or HETATM records"},
  };
  for (const BadInput& c : cases) {
    const MoleculeResult r = readPdb(c.text, "w.pdb");
    EXPECT_EQ(r.error, c.error) << c.text;
    EXPECT_TRUE(r.molecule.particles.empty() && r.molecule.constraints.empty());
  }
}

const char kTriangle[] =
    "# a triangle\n"
    "particles 3\n"
    "0 0 0 12\n"
    "1.5 0 0 16\n"
    "\n"
    "0 1.5 0 1e0\n"
    "constraints 3\n"
    "0 1 1.5\n"
    "1 2 2.1213203435596424\n"
    "2 0 1.5\n";

TEST(ShakeReadText, ReadsParticlesAndConstraints) {
  const MoleculeResult r = readMoleculeText(kTriangle, "t.mol");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.molecule.particles.size(), 3u);
  EXPECT_DOUBLE_EQ(r.molecule.particles[1].x, 1.5);
  EXPECT_DOUBLE_EQ(r.molecule.particles[1].mass, 16);
  EXPECT_EQ(r.molecule.particles[2].line, 6u);
  ASSERT_EQ(r.molecule.constraints.size(), 3u);
  EXPECT_EQ(r.molecule.constraints[2].i, 2u);
  EXPECT_EQ(r.molecule.constraints[2].j, 0u);
  EXPECT_EQ(r.molecule.constraints[2].line, 10u);
}

TEST(ShakeReadText, WritesTextThatReadsBackTheSame) {
  Molecule m = readMoleculeText(kTriangle, "t.mol").molecule;
  m.particles[0].x = 0.1;  // not exact in binary: the writer must keep every bit
  const MoleculeResult back = readMoleculeText(moleculeText(m), "back");
  ASSERT_TRUE(back.ok()) << back.error;
  for (size_t p = 0; p < m.particles.size(); p++) {
    EXPECT_EQ(back.molecule.particles[p].x, m.particles[p].x);
    EXPECT_EQ(back.molecule.particles[p].mass, m.particles[p].mass);
  }
  for (size_t k = 0; k < m.constraints.size(); k++) {
    EXPECT_EQ(back.molecule.constraints[k].length, m.constraints[k].length);
  }
}

TEST(ShakeReadText, RefusesBadInputNamingTheLine) {
  const std::string two = "particles 2\n0 0 0 1\n1 0 0 1\nconstraints 1\n";
  const BadInput cases[] = {
      {two + "0 2 1\n", "m:5: particle 2 does not exist (the molecule has 2)"},
      {two + "0 1 0\n", "m:5: length 0 is not above 0"},
      {two + "0 1 -1.5\n", "m:5: length -1.5 is not above 0"},
      {two + "0 1 1.5x\n", "m:5: length '1.5x' is not a number"},
      {two + "0 1\n", "m:5: expected a constraint \"i j length\", found 2 fields"},
      {two + "0 0 1\n", "m:5: a constraint of particle 0 to itself"},
      {two + "0 -1 1\n", "m:5: particle '-1' is not an index"},
      {two, "m:4: the file ends after 0 of 1 constraints"},
      {two + "0 1 1\n1 0 1\n", "m:6: more lines than the 1 constraints"},
      {"particles 2\n0 0 0 1\n1 0 0 1\nconstraints 2\n0 1 1\n1 0 1\n",
       "m:6: particles 1 and 0 are constrained twice"},
      {"particles 2\n0 0 nan 1\n", "m:2: z 'nan' is not a number"},
      {"particles 2\n0 0 0 0\n", "m:2: mass 0 is not above 0"},
      {"particles 2\n0 0 0\n", "m:2: expected a particle \"x y z mass\", found 3 fields"},
      {"particles 2\n0 0 0 1\n", "m:2: the file ends after 1 of 2 particles"},
      {"# nothing\n", "m:1: no \"particles <count>\" line"},
      {"", "m:1: no \"particles <count>\" line"},
      {"atoms 2\n", "m:1: expected \"particles <count>\""},
      {"particles 0\n", "m:1: a molecule of no particles"},
  };
  for (const BadInput& c : cases) {
    const MoleculeResult r = readMoleculeText(c.text, "m");
    EXPECT_EQ(r.error, c.error) << c.text;
    EXPECT_TRUE(r.molecule.particles.empty() && r.molecule.constraints.empty());
  }
}

TEST(ShakeReadFile, ChoosesTheFormatByTheName) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "shake_water.PDB") << kWater;
  std::ofstream(dir + "shake_triangle.mol") << kTriangle;
  const MoleculeResult pdb = readMoleculeFile(dir + "shake_water.PDB");
  ASSERT_TRUE(pdb.ok()) << pdb.error;
  EXPECT_EQ(pdb.molecule.constraints.size(), 2u);
  const MoleculeResult text = readMoleculeFile(dir + "shake_triangle.mol");
  ASSERT_TRUE(text.ok()) << text.error;
  EXPECT_EQ(text.molecule.constraints.size(), 3u);
  EXPECT_EQ(readMoleculeFile(dir + "shake_absent.mol").error,
            dir + "shake_absent.mol: No such file or directory");
}

}  // namespace
}  // namespace tessera::shake
