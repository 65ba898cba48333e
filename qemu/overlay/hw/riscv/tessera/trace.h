#include "trace/trace-hw_riscv_tessera.h"
