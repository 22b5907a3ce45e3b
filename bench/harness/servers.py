"""nginx on 127.0.0.1 serving the corpora over HTTP and, with a test CA made for the run,
over HTTPS (TLS 1.3, HTTP/2 offered by ALPN)."""

import os
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Origin:
    """Where contenders fetch from, and the CA file they must trust to do it (HTTPS only)."""
    base: str
    authority: Path = None

    def url(self, corpus, name):
        return f"{self.base}/{corpus.name}/{name}"

    @property
    def environment(self):
        """The environment every contender runs in. Over HTTPS the test CA is the only one
        trusted: libcurl (syncagent, curl) takes `CURL_CA_BUNDLE` before `SSL_CERT_FILE`, and
        this machine sets all three variables globally, so all three are set or unset here.
        wget2 and aria2c (GnuTLS) are given the file on their command lines as well."""
        environment = dict(os.environ)
        if self.authority:
            environment["CURL_CA_BUNDLE"] = environment["SSL_CERT_FILE"] = str(self.authority)
            environment.pop("SSL_CERT_DIR", None)
        return environment


class TestAuthority:
    """A certificate authority made for this run only, and the certificate it signs for the
    server at 127.0.0.1 (ECDSA P-256, as most mirrors' CDNs serve)."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True)
        self.certificate = folder / "ca.pem"
        self.server_certificate, self.server_key = folder / "server.pem", folder / "server.key"
        key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        openssl(["req", "-x509", *key, "-keyout", folder / "ca.key", "-out", self.certificate, "-days", "2",
                 "-subj", "/CN=syncagent bench CA", "-addext", "basicConstraints=critical,CA:TRUE",
                 "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        openssl(["req", *key, "-keyout", self.server_key, "-out", folder / "server.csr", "-subj", "/CN=127.0.0.1"])
        extensions = folder / "server.ext"
        extensions.write_text("subjectAltName = IP:127.0.0.1\nbasicConstraints = CA:FALSE\n"
                              "extendedKeyUsage = serverAuth\n")
        openssl(["x509", "-req", "-in", folder / "server.csr", "-CA", self.certificate, "-CAkey", folder / "ca.key",
                 "-CAcreateserial", "-out", self.server_certificate, "-days", "2", "-extfile", extensions])


def openssl(arguments):
    result = subprocess.run(["openssl", *map(str, arguments)], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"openssl {arguments[0]} failed while making the test CA:\n{result.stderr}")


def free_port():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


class Nginx:
    """nginx on free ports of 127.0.0.1, serving the corpus root, with its own config.

    `plain` is HTTP/1.1. With a test authority, `secure` is HTTPS with TLS 1.3 only and HTTP/2
    offered (nginx 1.22, Debian 12's, spells it `listen … ssl http2`), and `audited` is the
    same server with an access log of each request's TLS and HTTP versions, which only the
    untimed protocol probe uses: the timed servers log nothing.
    """

    def __init__(self, root: Path, work: Path, authority: TestAuthority = None):
        self.folder = f = work / "nginx"
        f.mkdir(parents=True)
        self.plain = Origin(f"http://127.0.0.1:{(port := free_port())}")
        blocks = f"server {{ listen 127.0.0.1:{port} backlog=1024; root {root}; }}"
        self.secure = self.audited = None
        if authority:
            self.secure = Origin(f"https://127.0.0.1:{(secure := free_port())}", authority.certificate)
            self.audited = Origin(f"https://127.0.0.1:{(audited := free_port())}", authority.certificate)
            tls = (f"ssl_certificate {authority.server_certificate}; ssl_certificate_key {authority.server_key};\n"
                   f"    ssl_protocols TLSv1.3; ssl_session_cache shared:TLS:10m; ssl_session_timeout 1h;")
            blocks += f"""
    {tls}
    server {{ listen 127.0.0.1:{secure} ssl http2 backlog=1024; root {root}; }}
    log_format protocols '$server_protocol over $ssl_protocol';
    server {{ listen 127.0.0.1:{audited} ssl http2; root {root}; access_log {self.protocol_log} protocols; }}"""
        # One worker: two cores are shared with the client. Keep-alive connections live for the
        # whole run (the default closes them after 1,000 requests; HTTP/2 connections too since
        # nginx 1.19.7) and open files are cached, so the server costs as little as it can and
        # the same for every contender.
        (f / "nginx.conf").write_text(f"""
daemon off; master_process off; worker_processes 1;
pid {f}/pid; error_log {f}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {f}/cb; proxy_temp_path {f}/p; fastcgi_temp_path {f}/f;
    uwsgi_temp_path {f}/u; scgi_temp_path {f}/s;
    types {{ application/pdf pdf; application/octet-stream bin; }}
    sendfile on; tcp_nopush on;
    keepalive_requests 1000000; keepalive_timeout 60s;
    open_file_cache max=30000 inactive=300s; open_file_cache_valid 300s;
    if_modified_since before;
    {blocks}
}}
""")
        self.process = subprocess.Popen(
            ["/usr/sbin/nginx", "-p", str(f), "-c", str(f / "nginx.conf"), "-e", str(f / "error.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for origin in filter(None, (self.plain, self.secure, self.audited)):
            self._wait_for(int(origin.base.rsplit(":", 1)[1]))

    @property
    def protocol_log(self):
        return self.folder / "protocols.log"

    def _wait_for(self, port):
        for _ in range(100):
            if self.process.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f"nginx did not start; see {self.folder / 'error.log'}")

    def stop(self):
        self.process.kill()
        self.process.wait()
