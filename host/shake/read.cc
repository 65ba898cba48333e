#include "tessera/shake/read.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <utility>

namespace tessera::shake {

std::string errorAt(const std::string& name, size_t line, const std::string& why) {
  return line == 0 ? name + ": " + why : name + ":" + std::to_string(line) + ": " + why;
}

namespace {

MoleculeResult fail(const std::string& name, size_t line, const std::string& why) {
  MoleculeResult r;
  r.error = errorAt(name, line, why);
  return r;
}

std::string trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// Columns [first, first + width) of a line (PDB's 1-based first column minus one), blank-padded.
std::string columns(const std::string& line, size_t first, size_t width) {
  if (first >= line.size()) return "";
  return line.substr(first, width);
}

bool realField(const std::string& f, double* value) {
  if (f.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = strtod(f.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
  *value = v;
  return true;
}

// A whole field of decimal digits below `limit`.
bool indexField(const std::string& f, uint64_t limit, uint64_t* value) {
  if (f.empty() || f.size() > 19 || f.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  const unsigned long long v = strtoull(f.c_str(), nullptr, 10);
  if (v >= limit) return false;
  *value = v;
  return true;
}

double distance(const Particle& a, const Particle& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

bool isComment(const std::string& line) {
  const std::string t = trim(line);
  return t.empty() || t[0] == '#';
}

// A constraint's pair with the smaller index first, to find pairs listed twice.
std::pair<uint32_t, uint32_t> pairOf(uint32_t a, uint32_t b) {
  return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
}

// Particle indices stay below this, so that counts fit in 32 bits.
constexpr uint64_t kIndexLimit = UINT32_MAX;

}  // namespace

double elementMass(const std::string& symbol) {
  struct Element {
    const char* symbol;
    double mass;
  };
  // Standard atomic weights (IUPAC, conventional values) of the elements molecules are usually
  // made of, and the common ions of PDB files.
  static constexpr Element kElements[] = {
      {"H", 1.008},   {"D", 2.014},   {"Li", 6.94},   {"B", 10.81},   {"C", 12.011},
      {"N", 14.007},  {"O", 15.999},  {"F", 18.998},  {"Na", 22.990}, {"Mg", 24.305},
      {"Al", 26.982}, {"Si", 28.085}, {"P", 30.974},  {"S", 32.06},   {"Cl", 35.45},
      {"K", 39.098},  {"Ca", 40.078}, {"Mn", 54.938}, {"Fe", 55.845}, {"Co", 58.933},
      {"Ni", 58.693}, {"Cu", 63.546}, {"Zn", 65.38},  {"Se", 78.971}, {"Br", 79.904},
      {"I", 126.904},
  };
  if (symbol.empty() || symbol.size() > 2) return 0;
  std::string s(1, static_cast<char>(toupper(static_cast<unsigned char>(symbol[0]))));
  if (symbol.size() == 2) s += static_cast<char>(tolower(static_cast<unsigned char>(symbol[1])));
  for (const Element& e : kElements) {
    if (s == e.symbol) return e.mass;
  }
  return 0;
}

MoleculeResult readPdb(const std::string& text, const std::string& name) {
  MoleculeResult r;
  r.molecule.name = name;
  std::map<uint64_t, uint32_t> bySerial;  // atom serial -> particle index
  struct Bond {
    uint64_t from, to;
    size_t line;
  };
  std::vector<Bond> bonds;  // resolved once every atom is known
  std::istringstream in(text);
  size_t number = 0;
  bool inFirstModel = true;
  for (std::string line; std::getline(in, line);) {
    number++;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string record = columns(line, 0, 6);
    if (record == "ENDMDL") inFirstModel = false;
    if (trim(record) == "END") break;
    if (record == "ATOM  " || record == "HETATM") {
      if (!inFirstModel) continue;
      if (line.size() < 54) {
        return fail(name, number,
                    "an " + trim(record) + " record needs columns 1-54 (x, y, z), this has " +
                        std::to_string(line.size()));
      }
      uint64_t serial;
      const std::string serialText = trim(columns(line, 6, 5));
      if (!indexField(serialText, 100000, &serial)) {
        return fail(name, number, "atom serial '" + serialText + "' is not a number");
      }
      if (bySerial.count(serial)) {
        return fail(name, number, "atom serial " + serialText + " is used twice");
      }
      Particle p;
      p.line = number;
      const char* axis[] = {"x", "y", "z"};
      double* value[] = {&p.x, &p.y, &p.z};
      for (int a = 0; a < 3; a++) {
        const std::string f = trim(columns(line, 30 + 8 * a, 8));
        if (!realField(f, value[a])) {
          return fail(name, number, std::string(axis[a]) + " '" + f + "' is not a number");
        }
      }
      std::string element = trim(columns(line, 76, 2));
      if (element.empty()) {
        // No element columns: the atom name's first letter ("CA" is carbon alpha).
        const std::string atom = trim(columns(line, 12, 4));
        const size_t letter = atom.find_first_not_of("0123456789");
        if (letter != std::string::npos) element = atom.substr(letter, 1);
      }
      p.mass = elementMass(element);
      if (p.mass == 0) {
        return fail(name, number, "unknown element '" + element + "': no mass for it");
      }
      bySerial[serial] = static_cast<uint32_t>(r.molecule.particles.size());
      r.molecule.particles.push_back(p);
    } else if (record == "CONECT") {
      uint64_t from;
      const std::string fromText = trim(columns(line, 6, 5));
      if (!indexField(fromText, 100000, &from)) {
        return fail(name, number, "CONECT atom serial '" + fromText + "' is not a number");
      }
      int listed = 0;
      for (size_t c = 11; c < 31; c += 5) {
        const std::string f = trim(columns(line, c, 5));
        if (f.empty()) continue;
        uint64_t to;
        if (!indexField(f, 100000, &to)) {
          return fail(name, number, "CONECT bonded atom serial '" + f + "' is not a number");
        }
        if (to == from) {
          return fail(name, number, "CONECT bonds atom " + fromText + " to itself");
        }
        bonds.push_back({from, to, number});
        listed++;
      }
      if (listed == 0) return fail(name, number, "CONECT lists no bonded atom");
    }
  }
  if (r.molecule.particles.empty())
    return fail(name, std::max<size_t>(number, 1), "no ATOM or HETATM records");
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (const Bond& b : bonds) {
    for (uint64_t serial : {b.from, b.to}) {
      if (!bySerial.count(serial)) {
        return fail(
            name, b.line,
            "CONECT names atom " + std::to_string(serial) + ", which no ATOM or HETATM record has");
      }
    }
    const uint32_t i = bySerial[b.from], j = bySerial[b.to];
    if (!seen.insert(pairOf(i, j)).second) continue;
    const double length = distance(r.molecule.particles[i], r.molecule.particles[j]);
    if (!(length > 0)) {
      return fail(name, b.line,
                  "atoms " + std::to_string(b.from) + " and " + std::to_string(b.to) +
                      " are at the same place: a zero-length constraint");
    }
    r.molecule.constraints.push_back({i, j, length, b.line});
  }
  return r;
}

MoleculeResult readMoleculeText(const std::string& text, const std::string& name) {
  MoleculeResult r;
  r.molecule.name = name;
  std::istringstream in(text);
  size_t number = 0;
  // The next line that is not a comment, split into fields; false at the end of the text.
  auto next = [&](std::vector<std::string>* f) {
    for (std::string line; std::getline(in, line);) {
      number++;
      if (isComment(line)) continue;
      *f = fields(line);
      return true;
    }
    return false;
  };
  // A section's header "<word> <count>".
  auto header = [&](const char* word, uint64_t* count, std::string* why) {
    std::vector<std::string> f;
    if (!next(&f)) {
      *why = std::string("no \"") + word + " <count>\" line";
      return false;
    }
    if (f.size() != 2 || f[0] != word || !indexField(f[1], kIndexLimit, count)) {
      *why = std::string("expected \"") + word + " <count>\"";
      return false;
    }
    return true;
  };
  std::string why;
  uint64_t particles, constraints;
  if (!header("particles", &particles, &why)) {
    return fail(name, std::max<size_t>(number, 1), why);  // an empty text: line 1
  }
  if (particles == 0) return fail(name, number, "a molecule of no particles");
  std::vector<std::string> f;
  for (uint64_t k = 0; k < particles; k++) {
    if (!next(&f)) {
      return fail(name, number,
                  "the file ends after " + std::to_string(k) + " of " + std::to_string(particles) +
                      " particles");
    }
    if (f.size() != 4) {
      return fail(
          name, number,
          "expected a particle \"x y z mass\", found " + std::to_string(f.size()) + " fields");
    }
    Particle p;
    p.line = number;
    double* value[] = {&p.x, &p.y, &p.z, &p.mass};
    const char* what[] = {"x", "y", "z", "mass"};
    for (int a = 0; a < 4; a++) {
      if (!realField(f[a], value[a])) {
        return fail(name, number, std::string(what[a]) + " '" + f[a] + "' is not a number");
      }
    }
    if (!(p.mass > 0)) return fail(name, number, "mass " + f[3] + " is not above 0");
    r.molecule.particles.push_back(p);
  }
  if (!header("constraints", &constraints, &why)) return fail(name, number, why);
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (uint64_t k = 0; k < constraints; k++) {
    if (!next(&f)) {
      return fail(name, number,
                  "the file ends after " + std::to_string(k) + " of " +
                      std::to_string(constraints) + " constraints");
    }
    if (f.size() != 3) {
      return fail(
          name, number,
          "expected a constraint \"i j length\", found " + std::to_string(f.size()) + " fields");
    }
    uint64_t ends[2];
    for (int e = 0; e < 2; e++) {
      if (!indexField(f[e], kIndexLimit, &ends[e])) {
        return fail(name, number, "particle '" + f[e] + "' is not an index");
      }
      if (ends[e] >= particles) {
        return fail(name, number,
                    "particle " + f[e] + " does not exist (the molecule has " +
                        std::to_string(particles) + ")");
      }
    }
    if (ends[0] == ends[1])
      return fail(name, number, "a constraint of particle " + f[0] + " to itself");
    Constraint c{static_cast<uint32_t>(ends[0]), static_cast<uint32_t>(ends[1]), 0, number};
    if (!realField(f[2], &c.length)) {
      return fail(name, number, "length '" + f[2] + "' is not a number");
    }
    if (!(c.length > 0)) {
      return fail(name, number, "length " + f[2] + " is not above 0");
    }
    if (!seen.insert(pairOf(c.i, c.j)).second) {
      return fail(name, number, "particles " + f[0] + " and " + f[1] + " are constrained twice");
    }
    r.molecule.constraints.push_back(c);
  }
  if (next(&f))
    return fail(name, number,
                "more lines than the " + std::to_string(constraints) + " constraints");
  return r;
}

MoleculeResult readMoleculeFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return fail(path, 0, strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  std::string extension = path.size() >= 4 ? path.substr(path.size() - 4) : "";
  for (char& c : extension) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  if (extension == ".pdb" || extension == ".ent") return readPdb(text.str(), path);
  return readMoleculeText(text.str(), path);
}

std::string moleculeText(const Molecule& m) {
  std::string out = "# " + m.name + "\nparticles " + std::to_string(m.particles.size()) + "\n";
  char line[128];
  for (const Particle& p : m.particles) {
    snprintf(line, sizeof line, "%.17g %.17g %.17g %.17g\n", p.x, p.y, p.z, p.mass);
    out += line;
  }
  out += "constraints " + std::to_string(m.constraints.size()) + "\n";
  for (const Constraint& c : m.constraints) {
    snprintf(line, sizeof line, "%u %u %.17g\n", c.i, c.j, c.length);
    out += line;
  }
  return out;
}

}  // namespace tessera::shake
