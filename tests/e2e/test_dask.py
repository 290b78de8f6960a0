"""Extraction on a Dask cluster (``kg build --dask``): one LocalCluster of 2 worker processes
for the module, builds and neo4j-admin import files byte-identical to local ones, failures
inside a task, a worker lost mid-build, workers that differ from the driver, and shutting a
local cluster down."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("distributed", reason="the dask extra: pip install -e '.[dask]'")

from distributed import WorkerPlugin  # noqa: E402

from kg.cli import main  # noqa: E402
from kg.extractors.records import PaperRecord  # noqa: E402
from kg.graph.build import build  # noqa: E402
from kg.scale.dask_pool import DaskPool  # noqa: E402
from kg.scale.engines import DaskEngine  # noqa: E402
from kg.scale.identity import Identity, this_identity  # noqa: E402
from kg.scale.import_files import read_import_folder  # noqa: E402
from kg.scale.imports import build_import  # noqa: E402
from kg.scale.refusal import DaskError  # noqa: E402
from tests.conftest import REPO  # noqa: E402
from tests.helpers.import_folders import folder  # noqa: E402

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def pool():
    with DaskPool("local:2") as pool:
        yield pool


@pytest.fixture(scope="module")
def address(pool):
    return pool.client.scheduler_info()["address"]


def records(n):
    return [
        PaperRecord(
            title=f"Paper {i}", abstract=f"Paper {i} fine-tunes BERT on MNLI.", source="t", index=i
        )
        for i in range(n)
    ]


def test_seeds_and_samples_build_byte_identical_on_dask(pool, seed_files, tmp_path):
    for name, inputs in (("seeds", seed_files), ("samples", [str(REPO / "samples")])):
        build(inputs, tmp_path / f"{name}-local.kg")
        build(inputs, tmp_path / f"{name}-dask.kg", pool=pool)
        local = (tmp_path / f"{name}-local.kg").read_bytes()
        assert (tmp_path / f"{name}-dask.kg").read_bytes() == local, name


def test_the_cli_builds_on_a_running_cluster(address, tmp_path, capsys):
    local, dask = tmp_path / "local.kg", tmp_path / "dask.kg"
    samples = str(REPO / "samples")
    assert main(["build", samples, "-o", str(local), "-q"]) == 0
    assert main(["build", samples, "-o", str(dask), "--dask", address]) == 0
    assert f"kg: extracting on Dask, 2 workers, scheduler {address}" in capsys.readouterr().err
    assert dask.read_bytes() == local.read_bytes()


class FailOn(WorkerPlugin):
    """On each worker: the extractors raise on abstracts holding ``word``."""

    name = "test-fail-on"

    def __init__(self, word):
        self.word = word

    def setup(self, worker):
        from kg.extractors import find

        self.real = real = find.find_mentions
        word = self.word
        find.find_mentions = lambda doc, *a: 1 / 0 if word in doc.text else real(doc, *a)

    def teardown(self, worker):
        from kg.extractors import find

        find.find_mentions = self.real


def squad_fourth(listing):
    """Five papers on MNLI, but the fourth on SQuAD."""
    lines = [{"title": f"T{i}", "abstract": f"We fine-tune BERT on MNLI {i}."} for i in range(5)]
    lines[3]["abstract"] = "We fine-tune BERT on SQuAD."
    listing.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return listing


FOURTH_FAILED = (
    "a.jsonl:4: extraction failed (ZeroDivisionError: division by zero); the paper is "
    "kept without entities; please report this as a bug"
)


def test_a_paper_whose_extraction_raises_is_reported_and_the_rest_land(pool, tmp_path):
    listing = squad_fourth(tmp_path / "a.jsonl")
    pool.client.register_plugin(FailOn("SQuAD"))
    try:
        G, report = build([listing], tmp_path / "g.kg", pool=pool)
    finally:
        pool.client.unregister_worker_plugin(FailOn.name)
    assert [str(p) for p in report.problems] == [FOURTH_FAILED]
    assert report.new_papers == 5
    assert {G.nodes[n]["name"] for n, k in G.nodes(data="kind") if k == "Dataset"} == {"MNLI"}


class KillAfter(WorkerPlugin):
    """The first worker to finish its ``k``-th kg task is killed (SIGKILL) at once."""

    name = "test-kill-after"

    def __init__(self, k, marker):
        self.k, self.marker, self.done = k, marker, 0

    def transition(self, key, start, finish, **kwargs):
        if not str(key).startswith("kg-") or finish != "memory":
            return
        self.done += 1
        if self.done == self.k:
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return  # another worker was killed already
            os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_mid_build_loses_no_paper(pool, tmp_path):
    from kg.extractors.pipeline import build_nlp
    from kg.extractors.workers import extract_serially

    marker = tmp_path / "killed"
    papers = records(256 * 12)
    before = set(pool.client.scheduler_info()["workers"])
    pool.client.register_plugin(KillAfter(2, str(marker)))
    try:
        got = list(pool.extract(papers))
    finally:
        pool.client.unregister_worker_plugin(KillAfter.name)
    assert marker.exists()
    assert before - set(pool.client.scheduler_info()["workers"])  # one worker is new
    assert [r.index for r, _ in got] == list(range(len(papers)))
    expected = list(extract_serially(papers[:300], build_nlp()))
    assert [ms for _, ms in got[:300]] == [ms for _, ms in expected]
    assert all(ms for _, ms in got)


def import_folder(inputs, out, **options):
    report = build_import(inputs, out, size=16, buckets=4, import_dir="/import", **options)
    return report, folder(out)


@pytest.fixture(scope="module")
def in_process(seed_files, tmp_path_factory):
    return import_folder(seed_files, tmp_path_factory.mktemp("import") / "files")


def test_the_import_files_made_on_the_cluster_equal_those_made_in_process(
    pool, seed_files, in_process, tmp_path
):
    report, files = import_folder(seed_files, tmp_path / "f", engine=DaskEngine(pool))
    assert report.partitions == 12  # a tree of 4 levels for each corpus-wide decision
    assert (report, files) == in_process


def test_a_second_batch_added_on_the_cluster_gives_the_rows_of_one_build(
    pool, seed_files, in_process, tmp_path
):
    out, once = tmp_path / "f", tmp_path / "once"
    import_folder(seed_files, once)
    import_folder(seed_files[:2], out)
    report, _ = import_folder(seed_files[2:], out, engine=DaskEngine(pool))
    assert report.total_papers == in_process[0].total_papers == 180
    assert sorted(map(repr, read_import_folder(out)[0])) == sorted(
        map(repr, read_import_folder(once)[0])
    )
    assert sorted(map(repr, read_import_folder(out)[1])) == sorted(
        map(repr, read_import_folder(once)[1])
    )


def test_a_worker_killed_mid_import_changes_no_file(pool, seed_files, in_process, tmp_path):
    marker = tmp_path / "killed"
    before = set(pool.client.scheduler_info()["workers"])
    pool.client.register_plugin(KillAfter(30, str(marker)))
    try:
        _, files = import_folder(seed_files, tmp_path / "f", engine=DaskEngine(pool))
    finally:
        pool.client.unregister_worker_plugin(KillAfter.name)
    assert marker.exists()
    assert before - set(pool.client.scheduler_info()["workers"])
    assert files == in_process[1]


def test_a_paper_whose_extraction_raises_is_reported_and_its_import_row_kept(pool, tmp_path):
    listing = squad_fourth(tmp_path / "a.jsonl")
    pool.client.register_plugin(FailOn("SQuAD"))
    try:
        report = build_import([listing], tmp_path / "f", engine=DaskEngine(pool), size=2)
    finally:
        pool.client.unregister_worker_plugin(FailOn.name)
    assert [str(p) for p in report.problems] == [FOURTH_FAILED]
    nodes, _ = read_import_folder(tmp_path / "f")
    assert sum(1 for row in nodes if row.kind == "Paper") == 5
    assert {row.props["name"] for row in nodes if row.kind == "Dataset"} == {"MNLI"}


def test_workers_that_differ_from_the_driver_are_refused(address, monkeypatch):
    own = this_identity()
    monkeypatch.setattr(
        "kg.scale.dask_pool.this_identity", lambda: Identity("0.0.1", own.lexicon, own.code)
    )
    with pytest.raises(DaskError, match=f"runs kg {own.version} where the driver runs kg 0.0.1"):
        DaskPool(address)
    monkeypatch.setattr(
        "kg.scale.dask_pool.this_identity", lambda: Identity(own.version, "0" * 16, own.code)
    )
    with pytest.raises(DaskError, match="lexicon .* where the driver's is 0000000000000000"):
        DaskPool(address)
    monkeypatch.undo()
    with DaskPool(address) as again:  # the cluster takes the driver's kg again
        assert [m.canonical for _, ms in again.extract(records(1)) for m in ms] == ["BERT", "MNLI"]


@pytest.mark.parametrize(
    ("stop", "status", "said"),
    [
        (lambda build: build.send_signal(signal.SIGTERM), 143, "terminated"),
        # Ctrl-C: the whole group
        (lambda build: os.killpg(build.pid, signal.SIGINT), 130, "interrupted"),
    ],
    ids=["SIGTERM", "SIGINT to the group"],
)
def test_stopping_a_build_shuts_its_local_cluster_down(stop, status, said, tmp_path):
    import psutil

    listing = tmp_path / "many.jsonl"
    listing.write_text(
        "".join(
            # Distinct abstracts: each a paper to extract (the same one would be read once).
            json.dumps(
                {"title": f"T{i}", "abstract": f"Study {i}. " + "We tune BERT on MNLI. " * 40}
            )
            + "\n"
            for i in range(5_000)
        )
    )
    command = [sys.executable, "-m", "kg", "build", str(listing), "-o", str(tmp_path / "g.kg")]
    build = subprocess.Popen(
        [*command, "--dask", "local:2"], stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    line = build.stderr.readline()
    assert line.startswith("kg: extracting on Dask, 2 workers"), line  # and no warning before
    children = psutil.Process(build.pid).children(recursive=True)
    assert len(children) >= 2
    time.sleep(1)  # extracting
    stop(build)
    assert build.wait(timeout=60) == status
    assert said in build.stderr.read()
    _, alive = psutil.wait_procs(children, timeout=30)
    assert alive == []
    assert not (tmp_path / "g.kg").exists()
