/* Tinsel's device-side conventions in C, as its own header spells them: mhartid and cycle read
 * with "csrrw rd, csr, zero" (which the machine accepts as reads), tinselEmit, Tinsel's printf
 * and puts, and config.h's compile-time shape against the machine's. Each thread prints one
 * verdict line; thread 0 also emits its id. Exits 0 only if every check holds. */
#include <tinsel.h>

static uint32_t tinsel_style_id(void)
{
    uint32_t id;
    __asm__ volatile("csrrw %0, 0xf14, zero" : "=r"(id));
    return id;
}

static uint32_t tinsel_style_cycle(void)
{
    uint32_t n;
    __asm__ volatile("csrrw %0, 0xc00, zero" : "=r"(n));
    return n;
}

int main()
{
    uint32_t me = tinselId();
    uint32_t before = tinselCycleCount();
    uint32_t during = tinsel_style_cycle();
    uint32_t after = tinselCycleCount();
    uint32_t local = me % (1 << TinselLogThreadsPerBoard);
    uint32_t board_x = (me >> TinselLogThreadsPerBoard) % (1 << TinselMeshXBits);
    int ok = tinsel_style_id() == me && before <= during && during <= after &&
             TinselThreadsPerCore == tinselThreadsPerCore() &&
             TinselLogThreadsPerMailbox == tinselLogThreadsPerMailbox() &&
             TinselMsgsPerThread == tinselMsgsPerThread() && board_x < TinselMeshXLen &&
             local < TinselThreadsPerBoard;

    if (me == 0) {
        tinselEmit(me + 0x7e57);
    }
    puts("tinsel dialect: thread 0x");
    puthex(me);
    printf(" board %x %s\n", board_x, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
