#include "ObservableKitShims.h"

#if defined(_WIN32)
static __declspec(thread) void *okit_frame = 0;
#else
static __thread void *okit_frame = 0;
#endif

void *okit_current_frame(void) { return okit_frame; }
void okit_set_current_frame(void *frame) { okit_frame = frame; }

static int64_t okit_live = 0;

void okit_live_subscriptions_add(int64_t delta) { __atomic_add_fetch(&okit_live, delta, __ATOMIC_RELAXED); }
int64_t okit_live_subscriptions(void) { return __atomic_load_n(&okit_live, __ATOMIC_RELAXED); }
