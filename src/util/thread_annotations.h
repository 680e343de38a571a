// Clang's thread-safety attributes (https://clang.llvm.org/docs/ThreadSafetyAnalysis.html) under
// basalt's names. With clang they state, in a form the compiler checks (-Wthread-safety, an error
// in the clang trees), which mutex guards a member and which a function expects held; with GCC
// they expand to nothing. std::mutex carries no such attributes in libstdc++, so the state they
// guard is locked through util::Mutex and its scoped locks (util/mutex.h).

#ifndef BASALT_UTIL_THREAD_ANNOTATIONS_H_
#define BASALT_UTIL_THREAD_ANNOTATIONS_H_

#if defined(__clang__)
#define BASALT_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define BASALT_THREAD_ANNOTATION(x)
#endif

// A type that is a lock (a mutex), or an object that holds one for its scope.
#define BASALT_CAPABILITY(name) BASALT_THREAD_ANNOTATION(capability(name))
#define BASALT_SCOPED_CAPABILITY BASALT_THREAD_ANNOTATION(scoped_lockable)

// A member read and written only with `mu` held.
#define BASALT_GUARDED_BY(mu) BASALT_THREAD_ANNOTATION(guarded_by(mu))

// A function called with the locks held (shared: at least shared).
#define BASALT_REQUIRES(...) BASALT_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define BASALT_REQUIRES_SHARED(...) \
  BASALT_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))

// A function that takes the locks itself, so its caller must not hold them.
#define BASALT_EXCLUDES(...) BASALT_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))

// A function that takes or gives back a lock (none named: the object's own).
#define BASALT_ACQUIRE(...) BASALT_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define BASALT_RELEASE(...) BASALT_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define BASALT_ACQUIRE_SHARED(...) BASALT_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define BASALT_RELEASE_SHARED(...) BASALT_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))

// A function that tells the analysis a lock is held, where it was taken in a way the analysis
// cannot follow (a lock object returned by another function).
#define BASALT_ASSERT_CAPABILITY(x) BASALT_THREAD_ANNOTATION(assert_capability(x))
#define BASALT_ASSERT_SHARED_CAPABILITY(x) BASALT_THREAD_ANNOTATION(assert_shared_capability(x))

// A function the analysis skips: its locking is beyond what it can follow; say why beside it.
#define BASALT_NO_THREAD_SAFETY_ANALYSIS BASALT_THREAD_ANNOTATION(no_thread_safety_analysis)

#endif  // BASALT_UTIL_THREAD_ANNOTATIONS_H_
