print("wlslider-probe")
