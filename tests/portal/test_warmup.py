"""portal.warmup: what a web worker would do on its first request, done before the fork."""

from pathlib import Path

from django.conf import settings
from django.template import engines
from django.urls import clear_url_caches, get_resolver

from portal.warmup import TEMPLATE_SUFFIXES, warm


def test_every_template_of_the_project_is_compiled_and_every_reverse_table_made():
    loader = engines["django"].engine.template_loaders[0]  # Django's cached loader
    environment = engines["jinja2"].env
    loader.reset()  # (as a new process: other tests compiled some)
    environment.cache.clear()
    clear_url_caches()
    warm()
    folder = Path(settings.BASE_DIR) / "templates"
    names = {str(path.relative_to(folder)) for path in folder.rglob("*")
             if path.suffix in TEMPLATE_SUFFIXES}
    assert len(names) > 100
    assert names <= set(loader.get_template_cache), sorted(names - set(loader.get_template_cache))
    jinja = Path(settings.BASE_DIR) / "templates_jinja"
    for path in jinja.rglob("*.jinja"):  # compiled: in the environment's own cache
        name = str(path.relative_to(jinja))
        assert any(key[1] == name for key in environment.cache), name
    languages = {code for code, _ in settings.LANGUAGES}
    assert languages <= set(get_resolver()._reverse_dict)
    for _, included in get_resolver().namespace_dict.values():
        assert languages <= set(included._reverse_dict)
