/* tinsel.h compiled as C (gnu11), as Tinsel compiles its device programs: every call once, so
 * that anything C++-only in the header fails the firmware build. Not linked into any image. */
#include <tinsel.h>

void tessera_tinsel_c_check(void);

void tessera_tinsel_c_check(void)
{
    volatile int *msg = tinselSendSlot(); /* C's implicit conversion from volatile void* */
    uint32_t bx, by, tx, ty, core, thread;

    msg[0] = (int)(tinselId() + tinselCycleCount() + tinselCycleCountU() + tinselHostId());
    tinselEmit((uint32_t)msg[0]);
    (void)tinselUartTryPut('x');
    (void)tinselUartTryGet();
    tinselSetLen(0);
    tinselWaitUntil(TINSEL_CAN_SEND);
    if (tinselCanSend()) {
        tinselSend(0, msg);
    }
    tinselMulticast(0, 0, 1, msg);
    if (tinselCanRecv()) {
        tinselFree(tinselRecv());
    }
    (void)tinselIdle(1);
    (void)tinselSendSlotExtra();
    (void)tinselHeapBase();
    (void)tinselHeapBaseSRAM();
    tinselFromAddr(tinselToAddr(0, 0, 0, 0, 0, 1), &bx, &by, &tx, &ty, &core, &thread);
    tinselPerfCountReset();
    tinselPerfCountStart();
    tinselPerfCountStop();
    (void)(tinselMissCount() + tinselHitCount() + tinselWritebackCount() +
           tinselCPUIdleCount() + tinselCPUIdleCountU());
    printf("%s %x %d\n", "c", 1u, -1);
    puts("no newline");
    puthex(0x1234);
    putchar('\n');
}
