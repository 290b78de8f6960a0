"""The worker pool: streaming in order on several processes, start-up, and stopping."""

import os

from kg.extractors.pipeline import extract_mentions
from kg.extractors.records import PaperRecord
from kg.extractors.workers import WorkerPool, worker_processes

ABSTRACT = (
    "Off-policy evaluation (OPE) is a core problem. "
    "We propose OrderDP, a two-stage method that uses Group Relative Policy Optimization "
    "(GRPO) to fine-tune Llama-3-8B and GPT-4o. "
    "Experiments on CIFAR10, ImageNet-1k and the FooQA benchmark show higher accuracy and "
    "F1 than PPO. OPE with GRPO is cheap."
)


def test_extract_mentions_streams_in_order_on_one_or_two_workers():
    records = [
        PaperRecord(abstract=f"Paper {i} uses BERT and CIFAR-10.", source="t", index=i)
        for i in range(99)  # batches of 16, 32 and 51 (see batch_sizes)
    ] + [PaperRecord(abstract=ABSTRACT, source="t", index=99)]
    one = list(extract_mentions(records))
    two = list(extract_mentions(iter(records), workers=2))
    assert [r.index for r, _ in one] == [r.index for r, _ in two] == list(range(100))
    assert [ms for _, ms in one] == [ms for _, ms in two]
    assert {m.canonical for m in one[0][1]} == {"BERT", "CIFAR-10"}


def test_a_pool_waits_until_every_worker_has_its_pipeline():
    with WorkerPool(2) as pool:
        # a worker takes calls only once its initializer has built the pipeline
        assert pool.wait_until_ready() == {p.pid for p in worker_processes(pool._pool)}
        record = PaperRecord(abstract="We use BERT.", source="t", index=0)
        assert [m.canonical for _, ms in pool.extract([record]) for m in ms] == ["BERT"]


def test_closing_a_pool_stops_its_workers_even_busy_ones():
    # worker_processes reads the executor's private process table: the processes it
    # names are the ones the workers themselves report (the public way to ask them).
    with WorkerPool(2) as pool:
        pids = pool.wait_until_ready()
        processes = worker_processes(pool._pool)
        assert {p.pid for p in processes} == pids
        records = [
            PaperRecord(abstract="We use BERT. " * 200, source="t", index=i) for i in range(600)
        ]
        next(pool.extract(records))  # batches still in flight when the pool closes
    assert not any(p.is_alive() for p in processes)
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        raise AssertionError(f"worker {pid} still runs")
