// The slider engine: see Slider.
