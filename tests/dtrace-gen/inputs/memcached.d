#include <sys/types.h>

provider memcached {
   /**
    * Fired when a connection object is allocated from the connection pool.
    * @param connid the connection id
    */
   probe conn__allocate(int connid);

   /**
    * Fired when a connection object is released back to the pool.
    * @param connid the connection id
    */
   probe conn__release(int connid);

   /**
    * Fired when a new connection object is created (there are no more
    * connection objects in the connection pool).
    * @param ptr pointer to the connection object
    */
   probe conn__create(void *ptr);

   /**
    * Fired when a command is dispatched.
    * @param connid the connection id
    * @param threadid the thread id
    */
   probe conn__dispatch(int connid, int64_t threadid);

   probe slabs__allocate(int size, int slabclass, int slabsize, void* ptr);
   probe slabs__allocate__failed(int size, int slabclass);
   probe slabs__free(int size, int slabclass, void* ptr);

   probe assoc__find(const char *key, int keylen, int depth);
   probe assoc__insert(const char *key, int keylen);
   probe assoc__delete(const char *key, int keylen);

   probe item__link(const char *key, int keylen, int size);
   probe item__unlink(const char *key, int keylen, int size);
   probe item__remove(const char *key, int keylen, int size);
   probe item__update(const char *key, int keylen, int size);
   probe item__replace(const char *oldkey, int oldkeylen, int oldsize,
                       const char *newkey, int newkeylen, int newsize);

   probe process__command__start(int connid, const void *request, int size);
   probe process__command__end(int connid, const void *response, int size);

   probe command__get(int connid, const char *key, int keylen, int size, int64_t casid);
   probe command__touch(int connid, const char *key, int keylen, int size, int64_t casid);
   probe command__set(int connid, const char *key, int keylen, int size, int64_t casid);
   probe command__incr(int connid, const char *key, int keylen, int64_t val);
   probe command__delete(int connid, const char *key, int keylen);
};

#pragma D attributes Unstable/Unstable/Common provider memcached provider
#pragma D attributes Private/Private/Common provider memcached module
#pragma D attributes Private/Private/Common provider memcached function
#pragma D attributes Unstable/Unstable/Common provider memcached name
#pragma D attributes Unstable/Unstable/Common provider memcached args
