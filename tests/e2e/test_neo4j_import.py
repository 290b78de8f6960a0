"""``kg build --neo4j-import DIR`` in this process: the partitioned files hold the rows of
``kg export --format neo4j-csv`` of the local graph (SIMILAR_TO included, docs/scale.md), with
typed headers, keys unique across partitions, and they load into the Bolt test server
(FalkorDB) with the local graph's counts."""

from collections import Counter

import pytest

import kg.neo4j as kn
from kg.cli import main
from kg.errors import KgError, OutputError
from kg.export import export_graph
from kg.graph.build import build_graph
from kg.neo4j.push_plan import kind_of_key, owner_kinds
from kg.scale.import_files import import_units, read_import_folder
from kg.scale.imports import build_import
from tests.conftest import REPO
from tests.helpers.import_folders import folder

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def inputs(seed_files):
    return [*seed_files, str(REPO / "samples")]


@pytest.fixture(scope="module")
def local(inputs, tmp_path_factory):
    G, _ = build_graph(inputs)
    out = tmp_path_factory.mktemp("local") / "csv"
    export_graph(G, out, format="neo4j-csv")
    return G, out


@pytest.fixture(scope="module")
def partitioned(inputs, tmp_path_factory):
    out = tmp_path_factory.mktemp("import") / "files"
    report = build_import(inputs, out, size=16, buckets=4)
    return report, out


def rows_of(folder):
    nodes, rels = read_import_folder(folder)
    return Counter(map(repr, nodes)), Counter(map(repr, rels))


def test_the_files_hold_the_local_exports_rows(local, partitioned):
    report, files = partitioned
    assert report.partitions == 14 and report.duplicates == 2
    assert rows_of(files) == rows_of(local[1])
    assert sum(rows_of(files)[0].values()) > 1_000


def test_each_kind_has_a_typed_header_and_keys_unique_across_partitions(partitioned):
    _, files = partitioned
    names = {p.name for p in files.iterdir()}
    assert {"nodes-Paper-p00000.csv", "nodes-Paper-p00013.csv", "nodes-Author-b0003.csv"} <= names
    header = (files / "nodes-Paper-header.csv").read_text().strip().split(",")
    assert header[0] == "key:ID" and header[-1] == ":LABEL"
    assert {"year:int", "sources:string[]", "title"} <= set(header)
    rel = (files / "relationships-APPLIED_TO-header.csv").read_text().strip().split(",")
    assert rel[:3] == [":START_ID", ":END_ID", ":TYPE"]
    assert {"papers:int", "score:float", "paper_keys:string[]"} <= set(rel)
    nodes, _ = read_import_folder(files)
    keys = Counter(row.key for row in nodes)
    assert keys.most_common(1)[0][1] == 1
    command = (files / "import-command.txt").read_text()
    assert command.count("--nodes=") == len({p.split("-")[1] for p in names if p[:6] == "nodes-"})
    assert f"--nodes={files}/nodes-Paper-header.csv,{files}/nodes-Paper-p00000.csv," in command


def test_the_files_load_into_the_bolt_test_server_with_the_local_counts(bolt, local, partitioned):
    G, _ = local
    nodes, rels = read_import_folder(partitioned[1])
    with kn.connect(uri=bolt.uri, password="") as connection:
        report = kn.push_rows(nodes, rels, connection)
        counted = connection.read("MATCH (n) RETURN count(n) AS n")[0]["n"]
        related = connection.read("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"]
    assert (report.nodes, counted) == (G.number_of_nodes(), G.number_of_nodes())
    assert related == G.number_of_edges()


def test_each_partition_and_bucket_is_a_unit_holding_what_its_nodes_own(local, partitioned):
    _, exported = local
    assert len(import_units(exported)) == 1  # kg export's files are not split
    units = import_units(partitioned[1])
    assert len(units) == partitioned[0].partitions + 4
    owners = {"Paper", *owner_kinds()}
    for unit in units:
        keys = {row.key for row in unit.nodes()}
        for rel in unit.relationships():
            start, end = kind_of_key(rel.start), kind_of_key(rel.end)
            owner = (
                rel.start if start in owners and (start == "Paper" or end != "Paper") else rel.end
            )
            assert owner in keys, rel
    assert sum(len(u.relationships()) for u in units) == sum(u.counts()[1] for u in units)


def test_a_push_unit_by_unit_gives_the_database_a_push_of_the_local_export_gives(
    bolt, local, partitioned
):
    _, exported = local  # read back from CSV both: an empty list is no value there

    def database(connection):
        return sorted(
            map(
                repr,
                connection.read(
                    "MATCH (a)-[r]->(b) RETURN a.key AS a, type(r) AS t, b.key AS b, "
                    "properties(r) AS p"
                ),
            )
        )

    with kn.connect(uri=bolt.uri, password="") as connection:
        connection.write("MATCH (n) DETACH DELETE n")
        kn.push_rows(*read_import_folder(exported), connection)
        pushed = database(connection)
        connection.write("MATCH (n) DETACH DELETE n")
        kn.push_units(import_units(partitioned[1]), connection)
        assert database(connection) == pushed
        report = kn.push_units(import_units(partitioned[1]), connection)  # again: no change
        assert (report.deleted_relationships, report.deleted_nodes) == (0, 0)
        assert database(connection) == pushed


def test_the_cli_writes_the_files_and_prints_the_command(seed_files, tmp_path, capsys):
    out = tmp_path / "imp"
    assert main(["build", *seed_files, "--neo4j-import", str(out)]) == 0
    said = capsys.readouterr().out
    assert "Read 180 records: 180 papers" in said
    assert f"neo4j-admin database import full neo4j --nodes={out}/nodes-Area-header.csv" in said
    assert said.strip().endswith("--overwrite-destination=true")
    assert main(["build", *seed_files, "--neo4j-import", str(out), "-q"]) == 0  # replaced
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_worker_processes_write_the_same_files(seed_files, tmp_path):
    build_import(seed_files, tmp_path / "here", import_dir="/import")
    options = ["--workers", "2", "--import-dir", "/import", "-q"]
    assert main(["build", *seed_files, "--neo4j-import", str(tmp_path / "pool"), *options]) == 0
    assert folder(tmp_path / "pool") == folder(tmp_path / "here")


def test_a_folder_of_other_files_is_refused_before_any_work(seed_files, tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(OutputError, match="exists and is not a folder of kg's import files"):
        build_import(seed_files, out)
    assert main(["build", seed_files[0], "-o", "g.kg", "--neo4j-import", str(out)]) == 1
    assert "give -o GRAPH or --neo4j-import DIR, not both" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_a_failed_write_leaves_no_folder_and_no_staging(seed_files, tmp_path, monkeypatch):
    from kg.scale import imports

    def full_disk(*args):
        raise OutputError("the node file: no space left on device")

    monkeypatch.setattr(imports, "write_rows", full_disk)
    with pytest.raises(KgError, match="no space left"):
        build_import(seed_files, tmp_path / "imp")
    assert list(tmp_path.iterdir()) == []
