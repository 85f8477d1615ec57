"""bu.weigh when chromium has dropped a body: the guard serves the same bytes again."""
import pytest

import browser_util as bu

pytest.importorskip("playwright")
from playwright.sync_api import Error  # noqa: E402


class _Gone:
    def body(self):
        raise Error("Protocol error (Network.getResponseBody): No resource with given identifier found")


class _Req:
    def __init__(self, url):
        self.url = url

    def sizes(self):
        return {"responseBodySize": 7}

    def response(self):
        return _Gone()


def test_a_dropped_body_is_served_again_by_the_guard(tmp_path):
    (tmp_path / "a.css").write_bytes(b"body{color:red}" * 40)
    guard = bu.Guard.__new__(bu.Guard)  # no browser: only its overrides and body_of
    guard.overrides = {"/idx.json": '{"docs": []}'}
    with bu.serve(tmp_path) as url:
        reqs = [_Req(url + "/a.css"), _Req(url + "/idx.json")]
        w = bu.weigh(reqs, guard)
        with pytest.raises(Error):
            bu.weigh(reqs)  # without a guard the error stands
    assert w["gzip_by_url"][url + "/a.css"] == bu.gzip_size(b"body{color:red}" * 40)
    assert w["gzip_by_url"][url + "/idx.json"] == bu.gzip_size(b'{"docs": []}')
    assert w["requests"] == 2 and w["bytes"] == 14
