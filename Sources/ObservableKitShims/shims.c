#include "ObservableKitShims.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

// One step of a spin-wait: tells the core this thread is spinning.
static inline void okit_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

// The contended path of the futex mutex (Drepper, "Futexes Are Tricky", mutex 3): spin a
// little, since critical sections here are a few dozen instructions, then mark the word
// contended (2) and sleep until an unlock wakes us, retaking it as contended.
void okit_futex_lock_slow(uint32_t *word) {
  for (int spin = 0; spin < 100; spin++) {
    uint32_t unlocked = 0;
    if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0 &&
        __atomic_compare_exchange_n(word, &unlocked, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      return;
    }
    okit_spin_pause();
  }
  while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0) {
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
  }
}

void okit_futex_wake(uint32_t *word) {
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

// The observer lists' mutex shares its futex word with a property's turn (bits 2-3; see
// okit_sync_t), so its contended paths are the ones above written with compare-and-swap,
// leaving the turn bits as they are. A waiter sleeps on the whole word: a change of the turn
// bits wakes it early (the futex sees another value) and it looks again.
void okit_sync_lock_slow(uint32_t *word) {
  for (int spin = 0; spin < 100; spin++) {
    uint32_t seen = __atomic_load_n(word, __ATOMIC_RELAXED);
    if ((seen & OKIT_SYNC_LOCK_BITS) == 0 &&
        __atomic_compare_exchange_n(word, &seen, seen | 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      return;
    }
    okit_spin_pause();
  }
  for (;;) {
    uint32_t seen = __atomic_load_n(word, __ATOMIC_RELAXED);
    uint32_t contended = (seen & ~(uint32_t)OKIT_SYNC_LOCK_BITS) | 2;
    if ((seen & OKIT_SYNC_LOCK_BITS) == 0) {
      // Free: take it, marked contended, as the exchange of the plain mutex does.
      if (__atomic_compare_exchange_n(word, &seen, contended, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
      continue;
    }
    if ((seen & OKIT_SYNC_LOCK_BITS) == 1 &&
        !__atomic_compare_exchange_n(word, &seen, contended, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      continue;
    }
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, contended, NULL, NULL, 0);
  }
}

// Called after the unlock's decrement found the mutex contended (2, now 1): clear the mutex
// bits and wake one waiter.
void okit_sync_unlock_slow(uint32_t *word) {
  __atomic_fetch_and(word, ~(uint32_t)OKIT_SYNC_LOCK_BITS, __ATOMIC_RELEASE);
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif

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

#if defined(__APPLE__)
#include <pthread.h>
bool okit_is_main_thread(void) { return pthread_main_np() != 0; }
#elif defined(__linux__)
// The answer never changes for a thread: asked once per thread (a system call), then read
// from a thread-local (0 unknown, 1 main, 2 not main), since deliveries ask for each value.
// The header reads it inline (okit_is_main_thread_now); this call fills it in.
__thread unsigned char okit_main_thread_answer = 0;
bool okit_is_main_thread(void) {
  if (okit_main_thread_answer == 0) {
    okit_main_thread_answer = syscall(SYS_gettid) == getpid() ? 1 : 2;
  }
  return okit_main_thread_answer == 1;
}
#else
bool okit_is_main_thread(void) { return false; }
#endif

// libdispatch's C entry points for queue-specific values and its main queue (the object
// `dispatch_get_main_queue()` expands to), declared here: a C target does not see dispatch's
// headers on every platform, and ObservableKit links Dispatch. Asked through C, the lookup
// is one call; through the Swift overlay's generic `getSpecific`, the question a main-actor
// subscription asks for each value cost several times more in a main-queue block (the S14
// row, RUNS=3 bash Benchmarks/run.sh --filter 'S14.*': 1.82× the closure array at d2d4b30,
// 1.47× through C).
struct dispatch_queue_s;
#if defined(_WIN32)
// A data symbol of a DLL is reached through its import table.
extern __declspec(dllimport) struct dispatch_queue_s _dispatch_main_q;
#else
extern struct dispatch_queue_s _dispatch_main_q;
#endif
extern void dispatch_queue_set_specific(struct dispatch_queue_s *queue, const void *key, void *context,
                                        void (*destructor)(void *));
extern void *dispatch_get_specific(const void *key);

static char okit_main_queue_key;

void okit_mark_main_queue(void) {
  dispatch_queue_set_specific(&_dispatch_main_q, &okit_main_queue_key, &okit_main_queue_key, 0);
}

#if defined(__APPLE__)
bool okit_runs_on_main_queue(void) { return dispatch_get_specific(&okit_main_queue_key) != 0; }
#else
// Where an async `main` or `dispatchMain()` hands the main queue to the worker threads (swift
// on Linux), main-actor code runs in main-queue blocks off the main thread, so the question
// is asked for every value there. The queue running the block answers it first: one
// thread-local load in libdispatch. Deprecated as a way to name "the current queue" (a
// block may run on a queue that targets another), it is exact for this positive answer;
// a queue that targets the main queue falls through to the specific, which finds the mark
// through the targets. On Apple platforms, where main-actor code runs on the main thread
// (the check before this one), the specific alone answers.
extern struct dispatch_queue_s *dispatch_get_current_queue(void);
bool okit_runs_on_main_queue(void) {
  return dispatch_get_current_queue() == &_dispatch_main_q || dispatch_get_specific(&okit_main_queue_key) != 0;
}
#endif

#include <stdlib.h>
#include <string.h>
bool okit_simulate_os_before_26_requested(void) {
  const char *value = getenv("OBSERVABLEKIT_SIMULATE_OS_BEFORE_26");
  return value != NULL && strcmp(value, "1") == 0;
}
bool okit_model_fields_requested(const char *requested) {
  const char *value = getenv("OBSERVABLEKIT_MODEL_FIELDS");
  return value != NULL && strcmp(value, requested) == 0;
}
