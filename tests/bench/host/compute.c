// The compute-only loop of ./tessera bench host: the six-instruction body of apps/bench_mips
// (a multiply and add chain), COMPUTE_ITERATIONS times, on the machine's one hart. It prints the
// chain's value, which every build must agree on, and the loop's modelled cycles.
#include <tinsel.h>

int main(void) {
  uint32_t left = COMPUTE_ITERATIONS, chain = 1, sum = 0, scratch;
  const uint32_t factor = 0x9e3779b9u;
  const uint32_t start = tinselCycleCount();
  __asm__ volatile(
      "1:\n"
      "  mul  %[chain], %[chain], %[factor]\n"
      "  addi %[chain], %[chain], 7\n"
      "  xor  %[scratch], %[chain], %[left]\n"
      "  add  %[sum], %[sum], %[scratch]\n"
      "  addi %[left], %[left], -1\n"
      "  bnez %[left], 1b\n"
      : [chain] "+r"(chain), [sum] "+r"(sum), [left] "+r"(left), [scratch] "=&r"(scratch)
      : [factor] "r"(factor));
  const uint32_t cycles = tinselCycleCount() - start;
  printf("compute: iterations %d chain 0x%x sum 0x%x cycles %u\n", COMPUTE_ITERATIONS, chain, sum,
         cycles);
  return 0;
}
