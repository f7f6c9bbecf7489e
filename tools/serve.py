#!/usr/bin/env python3
"""serve.py DIR PORT: a static server for DIR on 127.0.0.1:PORT, as any static host serves
it, plus COOP/COEP headers, so the page is cross-origin isolated: the GPT's data-parallel
workers then share weights and gradients in SharedArrayBuffers, and performance.now() is
precise to 5 us. A page served without these headers works too (the workers transfer
buffers instead)."""
import functools, http.server, sys


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def main():
    root, port = sys.argv[1], int(sys.argv[2])
    handler = functools.partial(Handler, directory=root)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as srv:
        srv.serve_forever()


if __name__ == "__main__":
    main()
