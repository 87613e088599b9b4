#include "ObservableKitShims.h"

#if defined(_WIN32)
__declspec(thread) void *okit_frame = 0;
__declspec(thread) void *okit_schedule_gate = 0;
#else
__thread void *okit_frame = 0;
__thread void *okit_schedule_gate = 0;
#endif


static int64_t okit_live = 0;

void okit_live_subscriptions_add(int64_t delta) { __atomic_add_fetch(&okit_live, delta, __ATOMIC_RELAXED); }
int64_t okit_live_subscriptions(void) { return __atomic_load_n(&okit_live, __ATOMIC_RELAXED); }
