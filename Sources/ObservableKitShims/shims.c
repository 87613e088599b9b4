#include "ObservableKitShims.h"

#if defined(__APPLE__)
#include <pthread.h>
#elif defined(__linux__) || defined(__ANDROID__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#if defined(_WIN32)
__declspec(thread) void *okit_frame = 0;
#else
__thread void *okit_frame = 0;
#endif


static int64_t okit_live = 0;

void okit_live_subscriptions_add(int64_t delta) { __atomic_add_fetch(&okit_live, delta, __ATOMIC_RELAXED); }
int64_t okit_live_subscriptions(void) { return __atomic_load_n(&okit_live, __ATOMIC_RELAXED); }

bool okit_is_main_thread(void) {
#if defined(__APPLE__)
  return pthread_main_np() != 0;
#elif defined(__linux__) || defined(__ANDROID__)
  // The main thread's id is the process id.
  return (pid_t)syscall(SYS_gettid) == getpid();
#else
  return false;
#endif
}
