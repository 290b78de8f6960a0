"""kg.scale without a cluster: what a worker must share with the driver, ``--dask``
addresses, and Dask staying unimported (and optional) until a pool opens."""

import subprocess
import sys

import pytest

from kg.scale.dask_pool import local_workers, worker_side
from kg.scale.identity import Identity, fingerprint, this_identity
from kg.scale.refusal import DaskError


def test_an_identity_names_what_differs_from_the_drivers():
    driver = Identity("0.1.0", "aaaa", "cccc")
    assert Identity("0.1.0", "aaaa", "cccc").mismatch(driver) is None
    assert Identity("0.2.0", "bbbb", "cccc").mismatch(driver) == (
        "kg 0.2.0 where the driver runs kg 0.1.0"
    )
    assert Identity("0.1.0", "bbbb", "cccc").mismatch(driver) == (
        "lexicon bbbb where the driver's is aaaa (the data files or $KG_DATA differ)"
    )
    assert Identity("0.1.0", "aaaa", "dddd").mismatch(driver) == (
        "extraction code dddd where the driver's is cccc"
    )


def test_a_fingerprint_changes_with_any_files_bytes_or_name(tmp_path):
    (tmp_path / "words").mkdir()
    a, b = tmp_path / "a.txt", tmp_path / "words" / "b.txt"
    a.write_text("x\n")
    b.write_text("y\n")
    first = fingerprint(tmp_path, [a, b])
    assert fingerprint(tmp_path, [b, a]) == first
    b.write_text("y\nz\n")
    assert fingerprint(tmp_path, [a, b]) != first
    b.write_text("y\n")
    a.rename(tmp_path / "c.txt")
    assert fingerprint(tmp_path, [tmp_path / "c.txt", b]) != first


def test_the_users_data_folder_is_part_of_the_lexicon(tmp_path, monkeypatch):
    shipped = this_identity().lexicon
    (tmp_path / "lexicon.jsonl").write_text("")
    monkeypatch.setenv("KG_DATA", str(tmp_path))
    assert this_identity().lexicon not in ("", shipped)


def test_local_addresses():
    assert local_workers("local:2") == 2
    assert local_workers("tcp://10.0.0.5:8786") is None
    for bad in ("local:0", "local:", "local:two"):
        with pytest.raises(DaskError, match="write local:N with N >= 1"):
            local_workers(bad)


def test_without_dask_the_pool_says_how_to_install_it(monkeypatch):
    import kg.scale

    monkeypatch.delitem(sys.modules, "kg.scale.dask_worker", raising=False)
    monkeypatch.delattr(kg.scale, "dask_worker", raising=False)
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(DaskError, match=r"pip install -e '\.\[dask\]'"):
        worker_side()


def test_the_cli_does_not_import_dask_unless_asked():
    code = "import sys, kg.cli; kg.cli.build_parser(); print('distributed' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
