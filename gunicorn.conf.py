"""The production server's settings, shared by `make run`, the tests' live server and
the load benchmark (each passes its own --bind; command-line flags win over this file)."""
workers = 2
threads = 8
timeout = 60


def post_worker_init(worker):
    from app import tune_gc
    tune_gc()
