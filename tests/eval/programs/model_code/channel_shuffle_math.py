def channel_shuffle_order(channels, groups):
    per = channels // groups
    idx = list(range(channels))
    grid = [idx[g * per:(g + 1) * per] for g in range(groups)]
    return [grid[g][i] for i in range(per) for g in range(groups)]
print(channel_shuffle_order(8, 2), channel_shuffle_order(6, 3))
def stage_repeats(width_mult):
    table = {0.5: [24, 48, 96, 192, 1024], 1.0: [24, 116, 232, 464, 1024], 1.5: [24, 176, 352, 704, 1024]}
    if width_mult not in table:
        raise ValueError(f"width_mult={width_mult} is not supported")
    return table[width_mult]
for wm in (0.5, 1.0, 2.0):
    try:
        print(wm, stage_repeats(wm))
    except ValueError as e:
        print(e)
def split_channels(total, n):
    base = [total // n] * n
    base[0] += total - sum(base)
    return base
print(split_channels(37, 4), split_channels(64, 3))
