extension FaultServer {
    /// The fault-injecting HTTP server: `/usr/bin/python3` with the standard library only.
    ///
    /// argv[1] is its folder: it reads `routes.json` there afresh for every request (the test
    /// rewrites it atomically), takes file contents from that folder, and appends one JSON
    /// line per request to `requests.jsonl` as the status line goes out. argv[2] and argv[3],
    /// when given, are a certificate and key: it then also serves HTTPS. It prints
    /// "ready HTTP_PORT HTTPS_PORT" (0 without TLS) once both listen on 127.0.0.1.
    ///
    /// A route is the file's defaults plus a list of responses: the n-th request for a path
    /// gets the n-th response, the last one repeating. Each response may override any default
    /// and add a fault (see ``FaultResponse``).
    static let script = #"""
        import json
        import os
        import re
        import signal
        import socket
        import ssl
        import struct
        import sys
        import threading
        import time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        # The test process may have spawned us with SIGTERM blocked; make it work again.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

        folder = sys.argv[1]
        certificate = sys.argv[2] if len(sys.argv) > 3 else None
        key = sys.argv[3] if len(sys.argv) > 3 else None
        routes_path = os.path.join(folder, "routes.json")
        log_path = os.path.join(folder, "requests.jsonl")
        lock = threading.Lock()
        counts = {}


        class Dropped(Exception):
            """The response ended on purpose before it was whole."""


        def load_routes():
            try:
                with open(routes_path) as routes:
                    return json.load(routes)
            except FileNotFoundError:
                return {}


        def fields(items):
            """Header fields by lowercased name; a repeated field's values joined with ", "."""
            joined = {}
            for name, value in items:
                key = name.lower()
                joined[key] = joined[key] + ", " + value if key in joined else value
            return joined


        def record(entry):
            with lock:
                with open(log_path, "a") as log:
                    log.write(json.dumps(entry) + "\n")


        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            server_version = "FaultServer/1"

            def log_message(self, *arguments):
                pass

            def do_GET(self):
                self.respond(with_body=True)

            def do_HEAD(self):
                self.respond(with_body=False)

            def respond(self, with_body):
                # Stray bytes an earlier response on this connection left to send.
                if getattr(self, "late_excess", 0):
                    self.wfile.write(b"x" * self.late_excess)
                    self.late_excess = 0
                path = self.path.split("?", 1)[0]
                with lock:
                    index = counts.get(path, 0)
                    counts[path] = index + 1
                self.entry = {
                    "time": time.time(), "scheme": self.server.scheme, "method": self.command,
                    "path": self.path, "index": index, "status": 0,
                    "headers": fields(self.headers.items()),
                }
                route = load_routes().get(path)
                try:
                    if route is None:
                        self.page(404, "<html><body>Not Found</body></html>", {})
                    else:
                        responses = route.get("responses") or [{}]
                        spec = {key: value for key, value in route.items() if key != "responses"}
                        spec.update(responses[min(index, len(responses) - 1)])
                        self.answer(spec, with_body)
                except (Dropped, OSError, ssl.SSLError):
                    self.close_connection = True

            def start(self, status, headers, lines=()):
                self.entry["status"] = status
                record(self.entry)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, str(value))
                for line in lines:
                    self._headers_buffer.append(line.encode("latin-1") + b"\r\n")
                self.end_headers()

            def page(self, status, text, extra):
                body = text.encode()
                headers = {"Content-Type": "text/html; charset=utf-8", "Content-Length": len(body)}
                headers.update(extra)
                self.start(status, headers)
                if self.command != "HEAD":
                    self.wfile.write(body)

            def answer(self, spec, with_body):
                if spec.get("delay_headers"):
                    time.sleep(spec["delay_headers"])
                extra = spec.get("headers", {})
                if "redirect" in spec:
                    headers = {"Location": spec["redirect"], "Content-Length": 0}
                    headers.update(extra)
                    self.start(spec.get("redirect_status", 302), headers)
                    return
                status = spec.get("status", 200)
                if status not in (200, 206):
                    self.page(status, spec.get("page", "<html><body>Error %d</body></html>" % status), extra)
                    return
                if "page" in spec:
                    content = spec["page"].encode()
                else:
                    with open(os.path.join(folder, spec["file"]), "rb") as file:
                        content = file.read()
                etag = spec.get("etag")
                last_modified = spec.get("last_modified")
                if_none_match = self.headers.get("If-None-Match")
                if_modified_since = self.headers.get("If-Modified-Since")
                if (etag and if_none_match == etag) or (
                        last_modified and if_none_match is None and if_modified_since == last_modified):
                    self.start(304, {"ETag": etag, "Last-Modified": last_modified} if etag else {})
                    return

                start = 0
                requested = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range", ""))
                if_range = self.headers.get("If-Range")
                if_range_holds = if_range is None or if_range in (etag, last_modified) or spec.get("ignore_if_range")
                if requested and not spec.get("ignore_range") and if_range_holds:
                    start = int(requested.group(1))
                    if start >= len(content):
                        self.start(416, {"Content-Range": "bytes */%d" % len(content), "Content-Length": 0})
                        return
                    status = 206
                body = content[start:]

                headers = {"Content-Type": spec.get("content_type", "application/octet-stream"), "Accept-Ranges": "bytes"}
                if etag:
                    headers["ETag"] = etag
                if last_modified:
                    headers["Last-Modified"] = last_modified
                if status == 206:
                    headers["Content-Range"] = spec.get(
                        "content_range", "bytes %d-%d/%d" % (start, len(content) - 1, len(content)))
                if spec.get("without_length") or spec.get("endless"):
                    headers["Connection"] = "close"
                    self.close_connection = True
                else:
                    headers["Content-Length"] = spec.get("content_length", len(body))
                headers.update(extra)
                self.start(status, headers, spec.get("extra_header_lines", []))
                if with_body and spec.get("endless"):
                    block = b"\0" * 65536
                    while True:
                        self.wfile.write(block)
                elif with_body and spec.get("late_excess_bytes"):
                    self.wfile.write(body)
                    self.late_excess = spec["late_excess_bytes"]
                elif with_body and spec.get("excess_bytes"):
                    self.wfile.write(body + b"x" * spec["excess_bytes"])
                elif with_body:
                    self.send_body(body, spec)

            def send_body(self, body, spec):
                cut_after = spec.get("cut_after")
                send_only = spec.get("send_only")
                stall_after = spec.get("stall_after")
                rate = spec.get("bytes_per_second")
                stops = [stop for stop in (cut_after, send_only, stall_after) if stop is not None]
                sent = 0
                stalled = False
                while True:
                    if stall_after is not None and sent >= stall_after and not stalled:
                        self.wfile.flush()
                        time.sleep(spec.get("stall_seconds", 3600))
                        stalled = True
                    if cut_after is not None and sent >= cut_after:
                        self.wfile.flush()
                        # Time for the client to read what was sent: a reset drops unread data.
                        time.sleep(0.05)
                        # SO_LINGER 0: close with a reset, as a dropped connection looks.
                        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        self.connection.close()
                        raise Dropped()
                    if send_only is not None and sent >= send_only:
                        self.wfile.flush()
                        self.connection.shutdown(socket.SHUT_RDWR)
                        raise Dropped()
                    if sent >= len(body):
                        break
                    end = min([len(body), sent + 16384] + [stop for stop in stops if stop > sent])
                    self.wfile.write(body[sent:end])
                    if rate:
                        self.wfile.flush()
                        time.sleep((end - sent) / rate)
                    sent = end
                if spec.get("without_length"):
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_WR)


        class Server(ThreadingHTTPServer):
            daemon_threads = True
            allow_reuse_address = True

            def __init__(self, scheme):
                super().__init__(("127.0.0.1", 0), Handler)
                self.scheme = scheme

            def handle_error(self, request, client_address):
                pass


        plain = Server("http")
        servers = [plain]
        secure_port = 0
        if certificate:
            secure = Server("https")
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(certificate, key)
            secure.socket = context.wrap_socket(secure.socket, server_side=True)
            secure_port = secure.server_address[1]
            servers.append(secure)
        for server in servers:
            threading.Thread(target=server.serve_forever, daemon=True).start()
        print("ready %d %d" % (plain.server_address[1], secure_port), flush=True)
        threading.Event().wait()
        """#
}
