/*
 * A JavaScript runtime's probes in the style of Node's node.d: D types and
 * translators before the provider, probes with translated arguments, and
 * stability pragmas after it.
 */

typedef struct {
	int32_t fd;
	int32_t port;
	uint32_t remote;
	uint32_t buffered;
} node_dtrace_connection_t;

typedef struct {
	int fd;
	string remoteAddress;
	int remotePort;
	int bufferSize;
} node_connection_t;

translator node_connection_t <node_dtrace_connection_t *nc> {
	fd = *(int32_t *)copyin((uintptr_t)&nc->fd, sizeof (int32_t));
	remoteAddress = copyinstr(*(uintptr_t *)copyin((uintptr_t)&nc->remote,
	    sizeof (int32_t)));
	remotePort = *(int32_t *)copyin((uintptr_t)&nc->port, sizeof (int32_t));
	bufferSize = *(int32_t *)copyin((uintptr_t)&nc->buffered,
	    sizeof (int32_t));
};

typedef struct {
	uint32_t url;
	uint32_t method;
} node_dtrace_http_server_request_t;

typedef struct {
	string url;
	string method;
	string forwardedFor;
} node_http_request_t;

translator node_http_request_t <node_dtrace_http_server_request_t *nd> {
	url = copyinstr((uintptr_t)*(uint32_t *)copyin((uintptr_t)&nd->url,
	    sizeof (int32_t)));
	method = copyinstr((uintptr_t)*(uint32_t *)copyin((uintptr_t)&nd->method,
	    sizeof (int32_t)));
	forwardedFor = "provider { } ;";
};

provider node {
	probe net__server__connection(node_dtrace_connection_t *c,
	    const char *a, int p, int fd) : (node_connection_t *c, string a,
	    int p, int fd);
	probe net__stream__end(node_dtrace_connection_t *c, const char *a,
	    int p, int fd) : (node_connection_t *c, string a, int p, int fd);
	probe http__server__request(node_dtrace_http_server_request_t *h,
	    node_dtrace_connection_t *c, const char *a, int p, const char *m,
	    const char *u, int fd) : (node_http_request_t *h,
	    node_connection_t *c, string a, int p, string m, string u, int fd);
	probe http__server__response(node_dtrace_connection_t *c,
	    const char *a, int p, int fd) : (node_connection_t *c, string a,
	    int p, int fd);
	probe gc__start(int t, int f, void *isolate);
	probe gc__done(int t, int f, void *isolate);
};

#pragma D attributes Evolving/Evolving/ISA provider node provider
#pragma D attributes Private/Private/ISA provider node module
#pragma D attributes Private/Private/ISA provider node function
#pragma D attributes Private/Private/ISA provider node name
#pragma D attributes Evolving/Evolving/ISA provider node args
