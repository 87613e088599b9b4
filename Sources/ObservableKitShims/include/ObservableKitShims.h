#ifndef OBSERVABLEKIT_SHIMS_H
#define OBSERVABLEKIT_SHIMS_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__APPLE__)
#include <os/lock.h>
typedef os_unfair_lock okit_mutex_t;
#elif defined(_WIN32)
#include <windows.h>
typedef SRWLOCK okit_mutex_t;
#elif defined(__linux__)
/// A futex word: 0 unlocked, 1 locked, 2 locked with possible waiters. Four bytes where
/// pthread_mutex_t takes forty, and every event, property and bag has one.
typedef uint32_t okit_mutex_t;
void okit_futex_lock_slow(uint32_t *_Nonnull word);
void okit_futex_wake(uint32_t *_Nonnull word);
#else
#include <pthread.h>
typedef pthread_mutex_t okit_mutex_t;
#endif

#pragma clang assume_nonnull begin

/// A mutex that lives in memory that never moves (the tail of a ManagedBuffer).
typedef struct {
  okit_mutex_t mutex;
} okit_lock_t;

static inline void okit_lock_init(okit_lock_t *lock) {
#if defined(__APPLE__)
  lock->mutex = OS_UNFAIR_LOCK_INIT;
#elif defined(_WIN32)
  InitializeSRWLock(&lock->mutex);
#elif defined(__linux__)
  lock->mutex = 0;
#else
  pthread_mutex_init(&lock->mutex, NULL);
#endif
}

static inline void okit_lock_destroy(okit_lock_t *lock) {
#if !defined(__APPLE__) && !defined(_WIN32) && !defined(__linux__)
  pthread_mutex_destroy(&lock->mutex);
#else
  (void)lock;
#endif
}

static inline void okit_lock_lock(okit_lock_t *lock) {
#if defined(__APPLE__)
  os_unfair_lock_lock(&lock->mutex);
#elif defined(_WIN32)
  AcquireSRWLockExclusive(&lock->mutex);
#elif defined(__linux__)
  uint32_t unlocked = 0;
  if (!__atomic_compare_exchange_n(&lock->mutex, &unlocked, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    okit_futex_lock_slow(&lock->mutex);
  }
#else
  pthread_mutex_lock(&lock->mutex);
#endif
}

static inline void okit_lock_unlock(okit_lock_t *lock) {
#if defined(__APPLE__)
  os_unfair_lock_unlock(&lock->mutex);
#elif defined(_WIN32)
  ReleaseSRWLockExclusive(&lock->mutex);
#elif defined(__linux__)
  // 1 → 0 is the uncontended unlock; from 2 a waiter may sleep: clear the word and wake one.
  if (__atomic_fetch_sub(&lock->mutex, 1, __ATOMIC_RELEASE) != 1) {
    __atomic_store_n(&lock->mutex, 0, __ATOMIC_RELEASE);
    okit_futex_wake(&lock->mutex);
  }
#else
  pthread_mutex_unlock(&lock->mutex);
#endif
}

/// The lock of an observer list, with a 64-bit epoch that passes load without the lock
/// and, for properties, the turn: OKIT_TURN_HELD while one thread delivers the property's
/// values, plus OKIT_TURN_REQUESTED once another thread has asked it to deliver again.
///
/// On Linux the turn's two bits live in the futex word, above the mutex's two (0 unlocked,
/// 1 locked, 2 locked with possible waiters), so that a set can let go of the lock and take
/// the turn in one atomic operation (`okit_sync_unlock_and_try_take_turn`): the atomics are
/// what an uncontended set costs most, and this saves one of four.
/// Elsewhere the turn is a word of its own and that call makes two operations.
enum { OKIT_TURN_HELD = 4, OKIT_TURN_REQUESTED = 8 };

#if defined(__linux__) && !defined(__APPLE__) && !defined(_WIN32)
#define OKIT_SYNC_FUSED_TURN 1
enum { OKIT_SYNC_LOCK_BITS = 3 };
typedef struct {
  uint64_t epoch;
  /// The futex word: the mutex in bits 0-1, the turn in bits 2-3.
  uint32_t word;
  /// A word of the guarded state's, mirrored for loads without the mutex (it fills the
  /// padding after `word`, so it costs no space).
  uint32_t flags;
} okit_sync_t;
void okit_sync_lock_slow(uint32_t *_Nonnull word);
void okit_sync_unlock_slow(uint32_t *_Nonnull word);
#else
typedef struct {
  uint64_t epoch;
  uint64_t turn;
  okit_lock_t lock;
  /// A word of the guarded state's, mirrored for loads without the mutex.
  uint32_t flags;
} okit_sync_t;
#endif

static inline void okit_sync_init(okit_sync_t *sync) {
  sync->epoch = 0;
  sync->flags = 0;
#if defined(OKIT_SYNC_FUSED_TURN)
  sync->word = 0;
#else
  sync->turn = 0;
  okit_lock_init(&sync->lock);
#endif
}

static inline void okit_sync_destroy(okit_sync_t *sync) {
#if defined(OKIT_SYNC_FUSED_TURN)
  (void)sync;
#else
  okit_lock_destroy(&sync->lock);
#endif
}

static inline void okit_sync_lock(okit_sync_t *sync) {
#if defined(OKIT_SYNC_FUSED_TURN)
  // The usual case: unlocked and no turn held. Otherwise the slow path keeps the turn bits.
  uint32_t unlocked = 0;
  if (!__atomic_compare_exchange_n(&sync->word, &unlocked, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    okit_sync_lock_slow(&sync->word);
  }
#else
  okit_lock_lock(&sync->lock);
#endif
}

static inline void okit_sync_unlock(okit_sync_t *sync) {
#if defined(OKIT_SYNC_FUSED_TURN)
  // Locked without waiters (1) → unlocked, whatever the turn bits; from 2 (the caller holds
  // the lock, so the mutex bits were 1 or 2), wake one.
  if (__atomic_fetch_sub(&sync->word, 1, __ATOMIC_RELEASE) & 2) {
    okit_sync_unlock_slow(&sync->word);
  }
#else
  okit_lock_unlock(&sync->lock);
#endif
}

/// Loads the epoch with acquire ordering; callable without the mutex.
static inline uint64_t okit_sync_load_epoch(const okit_sync_t *sync) {
  return __atomic_load_n(&sync->epoch, __ATOMIC_ACQUIRE);
}

/// Loads the flags with acquire ordering; callable without the mutex.
static inline uint32_t okit_sync_load_flags(const okit_sync_t *sync) {
  return __atomic_load_n(&sync->flags, __ATOMIC_ACQUIRE);
}

/// Stores the flags with release ordering. Call with the mutex held: every writer holds it,
/// so a plain store suffices (no read-modify-write).
static inline void okit_sync_store_flags(okit_sync_t *sync, uint32_t flags) {
  __atomic_store_n(&sync->flags, flags, __ATOMIC_RELEASE);
}

/// Advances the epoch with release ordering. Call with the mutex held.
static inline void okit_sync_advance_epoch(okit_sync_t *sync) {
  __atomic_fetch_add(&sync->epoch, 1, __ATOMIC_RELEASE);
}

#if defined(OKIT_SYNC_FUSED_TURN)
#define OKIT_TURN_WORD(sync) (&(sync)->word)
typedef uint32_t okit_turn_word_t;
#else
#define OKIT_TURN_WORD(sync) (&(sync)->turn)
typedef uint64_t okit_turn_word_t;
#endif

/// Takes the turn and returns true if nobody holds it; otherwise changes nothing. Every
/// operation on the turn leaves the other bits of its word (on Linux, the mutex) as they are.
static inline bool okit_sync_try_take_turn(okit_sync_t *sync) {
  okit_turn_word_t *word = OKIT_TURN_WORD(sync);
  okit_turn_word_t seen = 0;
  while (!(seen & OKIT_TURN_HELD)) {
    if (__atomic_compare_exchange_n(word, &seen, seen | OKIT_TURN_HELD, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      return true;
    }
  }
  return false;
}

/// Takes the turn and returns true if nobody holds it; otherwise asks the holder to deliver
/// again before it lets go, and returns false. Every path is a read-modify-write, so a
/// request synchronizes with the holder that takes it: what the requester wrote before
/// asking (under the storage lock) is visible to the holder's next pass.
static inline bool okit_sync_take_turn_or_request(okit_sync_t *sync) {
  okit_turn_word_t *word = OKIT_TURN_WORD(sync);
  okit_turn_word_t seen = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    okit_turn_word_t wanted = seen | OKIT_TURN_HELD | ((seen & OKIT_TURN_HELD) ? OKIT_TURN_REQUESTED : 0);
    if (__atomic_compare_exchange_n(word, &seen, wanted, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      return !(seen & OKIT_TURN_HELD);
    }
  }
}

/// Lets go of the turn and returns true, unless a request came in: then it takes the
/// request, keeps the turn, and returns false; the caller delivers again.
static inline bool okit_sync_release_turn(okit_sync_t *sync) {
  okit_turn_word_t *word = OKIT_TURN_WORD(sync);
  okit_turn_word_t seen = OKIT_TURN_HELD;
  for (;;) {
    okit_turn_word_t wanted = (seen & OKIT_TURN_REQUESTED) ? (seen & ~(okit_turn_word_t)OKIT_TURN_REQUESTED)
                                                           : (seen & ~(okit_turn_word_t)OKIT_TURN_HELD);
    if (__atomic_compare_exchange_n(word, &seen, wanted, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      return !(seen & OKIT_TURN_REQUESTED);
    }
  }
}

/// Unlocks the mutex and takes the turn if nobody holds it, returning whether it did: what
/// `okit_sync_unlock` then `okit_sync_try_take_turn` do. On Linux it is one atomic operation
/// in the usual case (locked without waiters, no turn held), so nothing can come between the
/// two: the release half publishes the critical section, the acquire half takes the turn
/// from its last holder. A turn found held, there, is reported at once, as a take made just
/// before the unlock would have found it.
static inline bool okit_sync_unlock_and_try_take_turn(okit_sync_t *sync) {
#if defined(OKIT_SYNC_FUSED_TURN)
  uint32_t seen = 1;
  if (__atomic_compare_exchange_n(&sync->word, &seen, (uint32_t)OKIT_TURN_HELD, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
    return true;
  }
  okit_sync_unlock(sync);
  // Held when the exchange looked (as a take tried then would have found it): no second
  // try. The caller asks the holder for a pass, after this unlock, or takes the turn if it
  // has been let go of meanwhile.
  if (seen & OKIT_TURN_HELD) return false;
#else
  okit_sync_unlock(sync);
#endif
  return okit_sync_try_take_turn(sync);
}

/// The innermost pass frame of the calling thread (see PassFrame.swift).
#if defined(_WIN32)
extern __declspec(thread) void *_Nullable okit_frame;
#elif defined(__ELF__) && !defined(__ANDROID__)
// initial-exec: every notification reads this variable, and this model makes that a direct
// thread-pointer-relative load instead of a call to __tls_get_addr. The variable is 8 bytes,
// well within the static TLS that glibc and musl keep for libraries loaded later.
extern __thread void *_Nullable okit_frame __attribute__((tls_model("initial-exec")));
#else
extern __thread void *_Nullable okit_frame;
#endif
static inline void *_Nullable okit_current_frame(void) { return okit_frame; }
static inline void okit_set_current_frame(void *_Nullable frame) { okit_frame = frame; }

/// The schedule gate of the calling thread: set only on the threads of the test suite's
/// schedule explorer, read only by debug builds (see SchedulePoint.swift).
#if defined(_WIN32)
extern __declspec(thread) void *_Nullable okit_schedule_gate;
#else
extern __thread void *_Nullable okit_schedule_gate;
#endif
static inline void *_Nullable okit_current_schedule_gate(void) { return okit_schedule_gate; }
static inline void okit_set_schedule_gate(void *_Nullable gate) { okit_schedule_gate = gate; }

/// The process-wide count of live subscriptions (kept by debug builds only).
void okit_live_subscriptions_add(int64_t delta);
int64_t okit_live_subscriptions(void);

/// Whether the calling thread is the process's main thread (pthread_main_np on Apple
/// platforms, the thread whose ID is the process ID on Linux; false where neither exists).
/// Main-actor delivery before the 26 releases asks it (see Delivery/MainActorNow.swift).
bool okit_is_main_thread(void);

/// `okit_is_main_thread`, with the thread's cached answer read inline on Linux (a
/// thread-pointer-relative load, as for okit_frame), since a main-actor delivery asks it for
/// each value; the first ask on a thread, and every other platform, make the call.
#if defined(__linux__) && defined(__ELF__) && !defined(__ANDROID__) && !defined(__APPLE__) && !defined(_WIN32)
extern __thread unsigned char okit_main_thread_answer __attribute__((tls_model("initial-exec")));
static inline bool okit_is_main_thread_now(void) {
  unsigned char answer = okit_main_thread_answer;
  return answer != 0 ? answer == 1 : okit_is_main_thread();
}
#else
static inline bool okit_is_main_thread_now(void) { return okit_is_main_thread(); }
#endif

/// Marks the main queue, so that `okit_runs_on_main_queue` can tell a block running on it
/// (or on a queue that targets it), whatever its thread. Idempotent.
void okit_mark_main_queue(void);

/// Whether the caller runs in a block of the main queue, or of a queue that targets it,
/// marked by `okit_mark_main_queue`.
bool okit_runs_on_main_queue(void);

/// Whether the environment variable OBSERVABLEKIT_SIMULATE_OS_BEFORE_26 is "1". Reads the
/// environment on every call: the Swift side reads it once and keeps the answer.
bool okit_simulate_os_before_26_requested(void);

/// Whether the environment variable OBSERVABLEKIT_MODEL_FIELDS is `value` (how
/// `PropertyModel.propertyChanges` finds a model's properties, forced in debug builds).
bool okit_model_fields_requested(const char *value);

#pragma clang assume_nonnull end

#endif
