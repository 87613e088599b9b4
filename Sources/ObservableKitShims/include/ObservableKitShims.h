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
#else
#include <pthread.h>
typedef pthread_mutex_t okit_mutex_t;
#endif

/// A mutex and a 64-bit epoch that readers may load without taking the mutex.
/// It lives in memory that never moves (the tail of a ManagedBuffer).
#pragma clang assume_nonnull begin

typedef struct {
  okit_mutex_t mutex;
  uint64_t epoch;
} okit_sync_t;

static inline void okit_sync_init(okit_sync_t *sync) {
  sync->epoch = 0;
#if defined(__APPLE__)
  sync->mutex = OS_UNFAIR_LOCK_INIT;
#elif defined(_WIN32)
  InitializeSRWLock(&sync->mutex);
#else
  pthread_mutex_init(&sync->mutex, NULL);
#endif
}

static inline void okit_sync_destroy(okit_sync_t *sync) {
#if !defined(__APPLE__) && !defined(_WIN32)
  pthread_mutex_destroy(&sync->mutex);
#else
  (void)sync;
#endif
}

static inline void okit_sync_lock(okit_sync_t *sync) {
#if defined(__APPLE__)
  os_unfair_lock_lock(&sync->mutex);
#elif defined(_WIN32)
  AcquireSRWLockExclusive(&sync->mutex);
#else
  pthread_mutex_lock(&sync->mutex);
#endif
}

static inline void okit_sync_unlock(okit_sync_t *sync) {
#if defined(__APPLE__)
  os_unfair_lock_unlock(&sync->mutex);
#elif defined(_WIN32)
  ReleaseSRWLockExclusive(&sync->mutex);
#else
  pthread_mutex_unlock(&sync->mutex);
#endif
}

/// Loads the epoch with acquire ordering; callable without the mutex.
static inline uint64_t okit_sync_load_epoch(const okit_sync_t *sync) {
  return __atomic_load_n(&sync->epoch, __ATOMIC_ACQUIRE);
}

/// Advances the epoch with release ordering. Call with the mutex held.
static inline void okit_sync_advance_epoch(okit_sync_t *sync) {
  __atomic_fetch_add(&sync->epoch, 1, __ATOMIC_RELEASE);
}

/// Raises `*word` to `value` if it is lower. Returns true if this call raised it.
static inline bool okit_atomic_raise(uint64_t *word, uint64_t value) {
  uint64_t seen = __atomic_load_n(word, __ATOMIC_ACQUIRE);
  while (seen < value) {
    if (__atomic_compare_exchange_n(word, &seen, value, true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      return true;
    }
  }
  return false;
}

static inline uint64_t okit_atomic_load(const uint64_t *word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline void okit_atomic_store(uint64_t *word, uint64_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

static inline uint64_t okit_atomic_increment(uint64_t *word) {
  return __atomic_add_fetch(word, 1, __ATOMIC_ACQ_REL);
}

static inline uint64_t okit_atomic_decrement(uint64_t *word) {
  return __atomic_sub_fetch(word, 1, __ATOMIC_ACQ_REL);
}

/// The innermost delivery frame of the calling thread (see DeliveryFrame.swift).
#if defined(_WIN32)
extern __declspec(thread) void *_Nullable okit_frame;
#else
extern __thread void *_Nullable okit_frame;
#endif
static inline void *_Nullable okit_current_frame(void) { return okit_frame; }
static inline void okit_set_current_frame(void *_Nullable frame) { okit_frame = frame; }

/// The process-wide count of live subscriptions (kept by debug builds only).
void okit_live_subscriptions_add(int64_t delta);
int64_t okit_live_subscriptions(void);

#pragma clang assume_nonnull end

#endif
