// Host: only EdgeList.h. Tinsel's EdgeList.h includes <stdio.h>, <stdint.h>, <assert.h>,
// <iostream>, <fstream> and <vector>.
#include <EdgeList.h>

int main(int argc, char** argv) {
  assert(argc == 2);            // <assert.h>
  std::ifstream file(argv[1]);  // <fstream>
  assert(file.good());
  EdgeList net;
  net.read(argv[1]);
  std::vector<uint32_t> degrees;  // <vector>, <stdint.h>
  for (uint32_t v = 0; v < net.numNodes; v++) degrees.push_back(net.neighbours[v][0]);
  if (net.numNodes != 4 || net.numEdges != 8 || degrees[0] != 2) {
    printf("EdgeList read %u vertices, %u edges\n", net.numNodes, net.numEdges);  // <stdio.h>
    return 1;
  }
  std::cout << "headers ok" << std::endl;  // <iostream>
  return 0;
}
