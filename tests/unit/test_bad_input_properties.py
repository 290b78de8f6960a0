"""Property: whatever the field types, encoding and line endings of a JSONL or JSON file,
the read raises nothing, every record with an abstract lands, and each record with one
bad field gets one problem line (kept) naming its line or position; a UTF-16 or UTF-32
file gets one line saying so."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.extractors.read import read_listings

#: Any text but NUL, which the read replaces and reports as a problem of its own
#: (tests/unit/test_bad_input.py): this property is about the fields' types.
ABSTRACT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\x00"),
    min_size=1,
    max_size=80,
).filter(lambda t: t.strip())
NAME = st.text("abcdefghij ", min_size=1, max_size=12).filter(lambda t: t.strip())
NUMBER = st.integers() | st.floats(allow_nan=False, allow_infinity=False)
OBJECT = st.dictionaries(st.text(max_size=5), NUMBER, min_size=1, max_size=3)
LIST = st.lists(NUMBER | st.booleans() | st.lists(NAME, max_size=2), min_size=1, max_size=3)
GOOD_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "title": NAME,
        "venue": NAME | st.integers(0, 3000),
        "year": st.integers(1, 9999) | st.integers(1, 9999).map(str),
        "authors": st.lists(NAME | st.builds(lambda n: {"name": n}, NAME), max_size=3) | NAME,
        "id": NAME | st.integers(0, 10**6),
    },
)
#: (field, a value of the wrong type for it)
BAD_FIELD = st.one_of(
    st.tuples(st.just("authors"), NUMBER | st.booleans() | OBJECT | LIST),
    st.tuples(
        st.just("year"),
        st.integers().filter(lambda y: not 1 <= y <= 9999)
        | st.booleans()
        | OBJECT
        | LIST
        | st.sampled_from(["n.d.", "20x1", "MMXX"])
        | st.floats(allow_nan=False, allow_infinity=False).filter(lambda y: not y.is_integer()),
    ),
    st.tuples(st.sampled_from(["title", "venue", "id"]), st.booleans() | OBJECT | LIST),
)
RECORD = st.tuples(ABSTRACT, GOOD_FIELDS, st.none() | BAD_FIELD)
NEWLINE = st.sampled_from(["\n", "\r\n", "\r"])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    records=st.lists(RECORD, min_size=1, max_size=6),
    newline=NEWLINE,
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32"]),
    blank_lines=st.lists(st.booleans(), min_size=6, max_size=6),
    as_array=st.booleans(),
)
def test_no_bad_field_costs_a_record(tmp_path, records, newline, encoding, blank_lines, as_array):
    objects, bad_at = [], []
    for position, (abstract, fields, bad) in enumerate(records):
        obj = {"abstract": abstract, **fields}
        if bad:
            obj[bad[0]] = bad[1]
            bad_at.append(position)
        objects.append(obj)
    if as_array:
        path, text = tmp_path / "p.json", json.dumps(objects, indent=1).replace("\n", newline)
        where = [f"p.json: record {i + 1}: field" for i in bad_at]
    else:
        lines, line_of = [], []
        for obj, blank in zip(objects, blank_lines, strict=False):
            if blank:
                lines.append("")
            lines.append(json.dumps(obj))
            line_of.append(len(lines))
        lines.append(json.dumps({"abstract": "One more good record."}))
        path, text = tmp_path / "p.jsonl", newline.join(lines) + newline
        where = [f"p.jsonl:{line_of[i]}: field" for i in bad_at]
    path.write_bytes(text.encode(encoding))
    problems: list = []
    landed = list(read_listings([str(path)], problems=problems))
    if encoding.startswith("utf-16") or encoding == "utf-32":
        wide = encoding[:6].upper()
        assert landed == [] and [p.message.split(",")[0] for p in problems] == [f"is {wide} text"]
        return
    assert len(landed) == len(objects) + (not as_array)
    assert [" ".join(r.abstract.split()) for r in landed[: len(objects)]] == [
        " ".join(o["abstract"].split()) for o in objects
    ]
    assert all(p.kept for p in problems)
    reports = [p.report.replace(f"{tmp_path}/", "") for p in problems]
    assert [r.split(" field")[0] + " field" for r in reports] == where
