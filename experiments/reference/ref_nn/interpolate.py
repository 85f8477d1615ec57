"""插值：ref-3-nn/interpolate.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def interp(**kw):
    y = F.interpolate(data(1, 1, 3, 4), **kw)
    return {"runs": True, "y": flat(y), "shape": list(y.shape)}


@row
def interpolate_nearest_up():
    return interp(size=(6, 8), mode="nearest")


@row
def interpolate_nearest_down():
    y = F.interpolate(data(1, 1, 5, 7), size=(3, 4), mode="nearest")
    return {"runs": True, "y": flat(y), "shape": list(y.shape)}


@row
def interpolate_nearest_exact():
    y = F.interpolate(data(1, 1, 5, 7), size=(3, 4), mode="nearest-exact")
    return {"runs": True, "y": flat(y), "shape": list(y.shape)}


@row
def interpolate_nearest_exact_select():
    y = F.interpolate(data(1, 1, 5, 7), size=(3, 4), mode="nearest-exact")
    return {"y": flat(y), "shape": list(y.shape)}


@row
def interpolate_bilinear_align_false():
    return interp(size=(5, 7), mode="bilinear", align_corners=False)


@row
def interpolate_bilinear_align_true():
    return interp(size=(5, 7), mode="bilinear", align_corners=True)


@row
def interpolate_bilinear_default():
    return interp(size=(5, 7), mode="bilinear")


@row
def interpolate_bicubic():
    return interp(size=(5, 7), mode="bicubic", align_corners=False)
