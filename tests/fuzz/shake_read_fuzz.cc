// libFuzzer target: the molecule readers (host/shake/read.cc). Any text as PDB and as
// molecule text: each either gives a molecule whose every constraint joins two different
// existing particles at a length above 0, with masses above 0, or one error line that starts
// with the file's name and a line number no greater than the text's line count; and a molecule
// read is written as molecule text and read back unchanged.
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <string>

#include "fuzz_check.h"
#include "tessera/shake/read.h"

namespace {

void CheckResult(const tessera::shake::MoleculeResult& r, const std::string& text) {
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  if (!r.ok()) {
    FUZZ_CHECK(r.error.rfind("in:", 0) == 0, "error without the file's name: %s", r.error.c_str());
    const size_t line = strtoull(r.error.c_str() + 3, nullptr, 10);
    FUZZ_CHECK(line >= 1 && line <= lines, "error at line %zu of %zu: %s", line, lines,
               r.error.c_str());
    FUZZ_CHECK(r.error.find('\n') == std::string::npos, "a multi-line error: %s", r.error.c_str());
    return;
  }
  const auto& m = r.molecule;
  FUZZ_CHECK(!m.particles.empty(), "a molecule of no particles");
  for (const auto& p : m.particles) FUZZ_CHECK(p.mass > 0, "a mass of %g", p.mass);
  for (const auto& c : m.constraints) {
    FUZZ_CHECK(c.i < m.particles.size() && c.j < m.particles.size() && c.i != c.j,
               "constraint %u-%u among %zu particles", c.i, c.j, m.particles.size());
    FUZZ_CHECK(c.length > 0, "a constraint of length %g", c.length);
  }
  const auto back = tessera::shake::readMoleculeText(tessera::shake::moleculeText(m), "back");
  FUZZ_CHECK(back.ok(), "the writer's text is refused: %s", back.error.c_str());
  FUZZ_CHECK(back.molecule.particles.size() == m.particles.size() &&
                 back.molecule.constraints.size() == m.constraints.size(),
             "a different molecule read back");
  for (size_t p = 0; p < m.particles.size(); p++) {
    const auto &a = m.particles[p], &b = back.molecule.particles[p];
    FUZZ_CHECK(a.x == b.x && a.y == b.y && a.z == b.z && a.mass == b.mass, "particle %zu changed",
               p);
  }
  for (size_t k = 0; k < m.constraints.size(); k++) {
    const auto &a = m.constraints[k], &b = back.molecule.constraints[k];
    FUZZ_CHECK(a.i == b.i && a.j == b.j && a.length == b.length, "constraint %zu changed", k);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), std::min<size_t>(size, 4096));
  CheckResult(tessera::shake::readPdb(text, "in"), text);
  CheckResult(tessera::shake::readMoleculeText(text, "in"), text);
  return 0;
}
